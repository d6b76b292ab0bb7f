/**
 * A document's number by its label, as cards, passports and licences print it: the EU licence's
 * field 5, the AAMVA licence's 4d (or DL, DLN, LIC), and the words for "number" of document,
 * passport, card or licence in the languages read here. The value follows its label on the line,
 * or stands alone on the next line (label above value).
 */

/** Labels of a document's number, matched on text in capitals without accents. */
const NUMBER_LABEL = new RegExp(
  [
    String.raw`\b(?:DOCUMENT|DOC|PASSPORT|PASSEPORT|PASAPORTE|PASSAPORTO|REISEPASS|CARD|CARTE|ID|LICEN[CS]E|PERMIS|DOKUMENTEN|AUSWEIS|DOCUMENTO|DNI)[.'’]?\s*(?:NO|NUMBER|NUM|NUMERO|NR|N|#)\b\.?`,
    String.raw`\b(?:NO|NUMBER|NUMERO|NUM|NR)\.?\s*(?:OF\s+)?(?:DOCUMENT|PASSPORT|CARD|DU\s+PASSEPORT|DE\s+(?:PASAPORTE|DOCUMENTO))\b`,
    String.raw`\b(?:DLN|DL|LIC|LICENSE\s*#|DRIVER\s*LICENSE\s*(?:NO|#))\b\.?`,
    String.raw`(?:^|\s)4D\.?(?=\s)`,
    // AAMVA's field number run into its word (4d LIC# read "4aLics": the d read as an a, # as an s).
    String.raw`\b4[A-D]\.?(?:DLN|DL|LIC)[#S]?(?![A-Z0-9])`,
    String.raw`\b(?:DOKUMENTNUMMER|AUSWEISNUMMER|PASSNUMMER|NUMER\s+DOKUMENTU|NUMERO\s+DE\s+SOPORTE)\b`,
  ].join('|'),
);

const EU_LICENCE_NUMBER = /^[^A-Z0-9]*5[.)]\s+([A-Z0-9]{5,15})\s*$/;

/** A number's shape: 5 to 15 letters and digits with a digit among them (dashes and spaces inside a number dropped). */
const NUMBER_VALUE = /^[\s:.#№°º-]*([A-Z0-9][A-Z0-9 -]{3,18}[A-Z0-9])/;

const plain = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();

/** The number a text prints under one of its labels, or null. */
export function numberByLabel(text: string): string | null {
  const lines = text.split(/\r?\n/).map(plain);
  // The EU licence's field 5 (its number of any length on a line of its own), wherever it stands:
  // its field 4d above it is a personal number, which the AAMVA's 4d label would take.
  for (const line of lines) {
    const eu = EU_LICENCE_NUMBER.exec(line);
    if (eu) return eu[1]!;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const label = NUMBER_LABEL.exec(line);
    if (!label) continue;
    const after = valueOf(line.slice(label.index + label[0].length));
    if (after) return after;
    const next = lines[i + 1] ?? '';
    const below = valueOf(valueInColumn(line, label.index, next) ?? next);
    if (below) return below;
  }
  return null;
}

/** The number at the start of `s`, if it has one's shape (a digit among 5-15 letters and digits). */
function valueOf(s: string): string | null {
  // Label words standing between the label and its value (4d DLN, No. #).
  const m = NUMBER_VALUE.exec(s.replace(/^[\s:.#№°º-]*(?:(?:DLN|DL|LIC|NO|NUMBER|NR|N)\b[\s:.#№°º-]*)+/, ''));
  if (!m) return null;
  // The first word, or words joined where the number is printed in groups (X 1234 567). Groups
  // parted by hyphens are one number whatever its length (S123-456-78-999-0: a space may part two
  // values on a line, a hyphen does not).
  const words = m[1]!.split(/(?=[ -])/);
  let value = words[0]!;
  for (const w of words.slice(1)) {
    const group = w.replace(/^[ -]+/, '');
    const hyphened = /^-[A-Z0-9]/.test(w);
    if ((!hyphened && value.length >= 8) || !/\d/.test(group) || group.length > 6) break;
    value += group;
  }
  return value.length >= 5 && value.length <= 15 && /\d/.test(value) ? value : null;
}

/** A licence's field number starting a column's label (AAMVA's 4a, 4d, 12; the EU's 4a., 5.). */
const FIELD_NUMBER = /(?:^|\s)\d{1,2}[A-D]?\.?(?=\s|[A-Z]{2})/g;

/**
 * The value under a label standing in a row of labels over a row of values ("4a ISS  4d NUMBER"
 * over a date and the number): the value whose place among the row's values is the label's place
 * among the numbered labels. Only where the row holds as many values as there are labels (a value
 * lost would shift the others under the wrong label); marks read off the card's edge before the
 * values are dropped. Null where the label row has no columns.
 */
export function valueInColumn(labelRow: string, labelAt: number, valueRow: string): string | null {
  const starts = [...labelRow.matchAll(FIELD_NUMBER)].map((m) => m.index ?? 0);
  if (starts.length < 2) return null;
  const column = starts.filter((at) => at <= labelAt).length - 1;
  const values = valueRow.split(/\s+/).filter(Boolean);
  while (values.length > starts.length && !/[A-Z0-9]{2}/.test(values[0]!)) values.shift();
  return column >= 0 && values.length === starts.length ? values[column]! : null;
}
