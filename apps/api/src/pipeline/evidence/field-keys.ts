import { editDistance, foldTransliteration, icaoTransliteration } from '../score/name-match.js';

export { editDistance };
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

/** Whether `cut` is `whole` with one to three letters lost at its start or its end, four or more kept. */
export function lettersLostAtEnd(whole: string, cut: string): boolean {
  const lost = whole.length - cut.length;
  return cut.length >= 4 && lost >= 1 && lost <= 3 && (whole.startsWith(cut) || whole.endsWith(cut));
}
