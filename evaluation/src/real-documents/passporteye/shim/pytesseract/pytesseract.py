"""A stand-in for pytesseract's run_tesseract, which PassportEye calls to read a zone.

pytesseract is not in this machine's package stores; it is itself a thin wrapper that runs the
tesseract command on a file. This does the same with Debian's tesseract (the brief's engine):
`tesseract <input> <output base> [-l lang] <config>`, which writes <output base>.txt, and
`cleanup`, which removes a temporary file.
"""
import os
import shlex
import subprocess


class TesseractError(RuntimeError):
    pass


def run_tesseract(input_filename, output_filename_base, extension, lang, config="", nice=0, timeout=0):
    cmd = ["tesseract", input_filename, output_filename_base]
    if lang:
        cmd += ["-l", lang]
    cmd += shlex.split(config or "")
    if extension and extension not in ("txt",):
        cmd.append(extension)
    run = subprocess.run(cmd, capture_output=True, timeout=timeout or None)
    if run.returncode != 0:
        raise TesseractError(run.stderr.decode("utf-8", "replace"))


def cleanup(temp_name):
    """Removes a temporary file, as pytesseract's cleanup does; a missing one is no error."""
    try:
        os.remove(temp_name)
    except OSError:
        pass
