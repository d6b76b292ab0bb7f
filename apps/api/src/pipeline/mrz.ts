import { parse } from 'mrz';

/** Fields read from a machine-readable zone whose check digits all hold. */
export interface MrzFields {
  format: 'TD1' | 'TD2' | 'TD3';
  documentCode: string;
  surname: string;
  givenNames: string;
  /** Given names then surname, as a person would write them. */
  fullName: string;
  documentNumber: string;
  /** ISO 8601 dates (YYYY-MM-DD). */
  dateOfBirth: string;
  expiryDate: string;
  /** ICAO three-letter code (e.g. ESP, D, GBR). */
  nationality: string;
}

const CHECKED_FIELDS = ['documentNumberCheckDigit', 'birthDateCheckDigit', 'expirationDateCheckDigit', 'compositeCheckDigit'];

/** Cleans one OCR line toward the MRZ alphabet: uppercase, `<` for look-alikes, no spaces. */
export function cleanMrzLine(line: string): string {
  return line
    .toUpperCase()
    .replace(/[«‹]/g, '<')
    .replace(/\s+/g, '')
    .replace(/[^A-Z0-9<]/g, '');
}

/**
 * Finds MRZ lines in OCR text: the last two (TD3/TD2) or three (TD1) lines that are long and
 * `<`-rich, cleaned and fitted to the format's length.
 */
export function findMrzLines(text: string): string[] | null {
  const candidates = text
    .split(/\r?\n/)
    .map(cleanMrzLine)
    .filter((l) => l.length >= 28 && (l.match(/</g)?.length ?? 0) >= 2);
  for (const count of [3, 2]) {
    if (candidates.length < count) continue;
    const lines = candidates.slice(-count);
    const lengths = count === 2 ? [44, 36] : [30];
    for (const len of lengths) {
      // OCR often drops trailing `<` fillers: a short line ending in `<` is padded back.
      const fits = (l: string) => Math.abs(l.length - len) <= 2 || (l.length < len && l.length >= len - 12 && l.endsWith('<'));
      if (lines.every(fits)) return lines.map((l) => l.slice(0, len).padEnd(len, '<'));
    }
  }
  return null;
}

/** YYMMDD to ISO. Birth dates are in the past; expiry dates this century unless clearly old. */
export function mrzDate(yymmdd: string, kind: 'birth' | 'expiry', now = new Date()): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const mm = yymmdd.slice(2, 4);
  const dd = yymmdd.slice(4, 6);
  const currentYY = now.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > currentYY ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  const iso = `${century + yy}-${mm}-${dd}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * Parses MRZ lines with the `mrz` package and accepts them only when every check digit holds
 * (document number, birth date, expiry date and the composite). An unknown issuing state does not
 * void an otherwise valid zone; its code is kept as read.
 */
export function parseMrz(lines: readonly string[], now = new Date()): MrzFields | null {
  let result;
  try {
    result = parse(lines);
  } catch {
    return null;
  }
  const byField = new Map(result.details.map((d) => [d.field, d]));
  for (const f of CHECKED_FIELDS) {
    const d = byField.get(f as never);
    if (d && !d.valid) return null;
  }
  const f = result.fields;
  const raw = (field: string) => (byField.get(field as never)?.value ?? '').replace(/</g, '');
  const surname = (f.lastName ?? '').trim();
  const givenNames = (f.firstName ?? '').trim();
  const dateOfBirth = f.birthDate ? mrzDate(f.birthDate, 'birth', now) : null;
  const expiryDate = f.expirationDate ? mrzDate(f.expirationDate, 'expiry', now) : null;
  if (!f.documentNumber || !dateOfBirth || !expiryDate || !surname) return null;
  return {
    format: result.format as MrzFields['format'],
    documentCode: f.documentCode ?? '',
    surname,
    givenNames,
    fullName: [givenNames, surname].filter(Boolean).join(' '),
    documentNumber: f.documentNumber,
    dateOfBirth,
    expiryDate,
    nationality: f.nationality ?? raw('nationality'),
  };
}
