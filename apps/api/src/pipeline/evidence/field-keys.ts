import { foldTransliteration, icaoTransliteration } from '../score/name-match.js';
import type { FieldName } from './candidates.js';

/**
 * What two readings of a field must share to be the same value read twice: dates their ISO form,
 * numbers their letters and digits with look-alikes folded (O and 0, I and 1 ...: one reading's
 * misread character is no other number), names their letters as a zone writes them (ICAO
 * transliteration, folded, without spaces: MÜLLER printed and MUELLER in the zone are one name).
 */
export function fieldKey(field: FieldName, value: string): string {
  switch (field) {
    case 'surname':
    case 'givenNames':
      return nameKey(value);
    case 'documentNumber':
      return lookAlikeForm(value);
    default:
      return value.toUpperCase().replace(/\s/g, '');
  }
}

/** A name as a zone writes it, for comparing readings: ICAO-transliterated, folded, no spaces. */
export const nameKey = (name: string): string => foldTransliteration(icaoTransliteration(name)).replace(/ /g, '');

/** A document number with its look-alikes folded, letters and digits only. */
export const lookAlikeForm = (s: string): string =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/[O0DQ]/g, '0')
    .replace(/[I1L]/g, '1')
    .replace(/[S5]/g, '5')
    .replace(/[B8]/g, '8')
    .replace(/[Z2]/g, '2')
    .replace(/[G6]/g, '6');

/** Whether two name keys are one name misread: a few letters apart (at most 3, under a quarter of the longer). */
export function misreadingOf(a: string, b: string): boolean {
  const allowed = Math.min(3, Math.floor(Math.max(a.length, b.length) / 4));
  return allowed > 0 && editDistance(a, b, allowed) <= allowed;
}

/** Levenshtein distance, stopping past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]!);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}
