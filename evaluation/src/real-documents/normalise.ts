/**
 * How a read value is compared with the truth. Only differences that are no reading error are
 * forgiven: case; accents and letters a keyboard or a zone writes otherwise (É as E, Æ as AE,
 * Þ as TH); hyphens, fillers, dots and spaces; and, in a name, the order of its words (a zone
 * puts the surname first, a print given names first). Dates compare as ISO dates, exactly.
 */
import type { Field } from './layouts.js';

const LETTERS: Record<string, string> = { Æ: 'AE', Ø: 'O', Þ: 'TH', Ð: 'D', ß: 'SS', Ł: 'L', Đ: 'D', Œ: 'OE', Ħ: 'H', ı: 'I' };

function plainLetters(s: string): string {
  return s
    .toUpperCase()
    .replace(/[ÆØÞÐŁĐŒĦ]|ß|ı/g, (ch) => LETTERS[ch] ?? ch)
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

export function normaliseName(s: string): string {
  return plainLetters(s)
    .replace(/[^A-Z]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
    .sort()
    .join(' ');
}

export function normaliseNumber(s: string): string {
  return plainLetters(s).replace(/[^A-Z0-9]/g, '');
}

export function normaliseCode(s: string): string {
  return plainLetters(s).replace(/[^A-Z]/g, '');
}

/** The form of a value that is compared; null stays null (a field not read). */
export function normalise(field: Field, value: string | null): string | null {
  if (value === null) return null;
  switch (field) {
    case 'fullName':
      return normaliseName(value);
    case 'documentNumber':
      return normaliseNumber(value);
    case 'nationality':
      return normaliseCode(value);
    case 'dateOfBirth':
    case 'expiryDate':
      return value.trim();
  }
}

/** Whether `read` is one of the accepted values after normalisation; a null or empty read never is. */
export function matches(field: Field, read: string | null, accepted: readonly string[]): boolean {
  const r = normalise(field, read);
  if (r === null || r === '') return false;
  return accepted.some((a) => normalise(field, a) === r);
}
