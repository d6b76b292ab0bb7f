/**
 * A document's number by its label, as cards, passports and licences print it: the EU licence's
 * field 5, the AAMVA licence's 4d (or DL, DLN, LIC), and the words for "number" of document,
 * passport, card or licence in the languages read here. The value follows its label on the line,
 * or stands alone on the next line (label above value).
 */

/** Labels of a document's number, matched on text in capitals without accents. */
const NUMBER_LABEL = new RegExp(
  [
    String.raw`\b(?:DOCUMENT|DOC|PASSPORT|PASSEPORT|PASAPORTE|PASSAPORTO|REISEPASS|CARD|CARTE|ID|LICEN[CS]E|PERMIS|DOKUMENTEN|AUSWEIS|DOCUMENTO|DNI)\.?\s*(?:NO|NUMBER|NUM|NUMERO|NR|N|#)\b\.?`,
    String.raw`\b(?:NO|NUMBER|NUMERO|NUM|NR)\.?\s*(?:OF\s+)?(?:DOCUMENT|PASSPORT|CARD|DU\s+PASSEPORT|DE\s+(?:PASAPORTE|DOCUMENTO))\b`,
    String.raw`\b(?:DLN|DL|LIC|LICENSE\s*#|DRIVER\s*LICENSE\s*(?:NO|#))\b\.?`,
    String.raw`(?:^|\s)4D\.?(?=\s)`,
    String.raw`\b(?:DOKUMENTNUMMER|AUSWEISNUMMER|PASSNUMMER|NUMER\s+DOKUMENTU|NUMERO\s+DE\s+SOPORTE)\b`,
  ].join('|'),
);

/** A number's shape: 5 to 15 letters and digits with a digit among them (dashes and spaces inside a number dropped). */
const NUMBER_VALUE = /^[\s:.#№°º-]*([A-Z0-9][A-Z0-9 -]{3,18}[A-Z0-9])/;

const plain = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();

/** The number a text prints under one of its labels, or null. */
export function numberByLabel(text: string): string | null {
  const lines = text.split(/\r?\n/).map(plain);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // The EU licence's field 5 (its number of any length on a line of its own).
    const eu = /^[^A-Z0-9]*5[.)]\s+([A-Z0-9]{5,15})\s*$/.exec(line);
    if (eu) return eu[1]!;
    const label = NUMBER_LABEL.exec(line);
    if (!label) continue;
    const after = valueOf(line.slice(label.index + label[0].length));
    if (after) return after;
    const below = lines[i + 1] && valueOf(lines[i + 1]!);
    if (below) return below;
  }
  return null;
}

/** The number at the start of `s`, if it has one's shape (a digit among 5-15 letters and digits). */
function valueOf(s: string): string | null {
  const m = NUMBER_VALUE.exec(s);
  if (!m) return null;
  // The first word, or words joined where the number is printed in groups (X 1234 567).
  const words = m[1]!.split(/[ -]+/);
  let value = words[0]!;
  for (const w of words.slice(1)) {
    if (value.length >= 8 || !/\d/.test(w) || w.length > 6) break;
    value += w;
  }
  return value.length >= 5 && value.length <= 15 && /\d/.test(value) ? value : null;
}
