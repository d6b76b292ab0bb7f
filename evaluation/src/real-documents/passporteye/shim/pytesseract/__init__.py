"""Stand-in package: PassportEye imports `from pytesseract import pytesseract` (see pytesseract.py)."""
