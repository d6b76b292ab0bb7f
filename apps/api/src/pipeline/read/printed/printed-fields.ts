import { states } from 'mrz';
import { isNamePrefix, normalizeName, PARTICLES } from '../../score/name-match.js';

/**
 * Printed fields read by their labels, for documents without a readable MRZ (identity cards
 * printed on the front, driving licences). Labels come in several languages and styles: words
 * ("Surname", "Apellidos / Surname", "Nom"), the EU licence's numbers ("1." surname, "2." given
 * names) and North-American abbreviations ("LN", "FN"). A value is on the label's own line after
 * the label, or on the next line (label above value).
 */
export interface PrintedFields {
  surname: string | null;
  givenNames: string | null;
  /** Three-letter code as printed (ICAO style), or null. */
  nationality: string | null;
}

const SURNAME = [
  '1',
  'LN',
  'SURNAME',
  'SURNAMES',
  'LAST NAME',
  'FAMILY NAME',
  'APELLIDOS',
  'APELLIDO',
  'NOM',
  'NACHNAME',
  'FAMILIENNAME',
  'COGNOME',
  'NAZWISKO',
];
const GIVEN = [
  '2',
  'FN',
  'GIVEN NAMES',
  'GIVEN NAME',
  'FIRST NAME',
  'FIRST NAMES',
  'FORENAMES',
  'NOMBRE',
  'NOMBRES',
  'PRENOMS',
  'PRENOM',
  'VORNAMEN',
  'VORNAME',
  'NOME',
  'IMIONA',
];
const NATIONALITY = ['NATIONALITY', 'NATIONALITE', 'NACIONALIDAD', 'STAATSANGEHORIGKEIT', 'NAZIONALITA', 'OBYWATELSTWO'];
/** Words that are labels of other fields: a line made of them is no value. */
const OTHER_LABELS = [
  'DATE',
  'OF',
  'BIRTH',
  'EXPIRY',
  'ISSUE',
  'SEX',
  'SEXE',
  'DOCUMENT',
  'NO',
  'PASSPORT',
  'DE',
  'NAISSANCE',
  'DELIVRANCE',
  'EXPIRATION',
  'SEXO',
  'DOB',
  'EXP',
  'ISS',
  'DL',
];

/** Where in a line's words a label (one or more words) starts, or -1. */
function findLabel(ws: string[], labels: string[]): { at: number; length: number } | null {
  for (const label of labels) {
    const parts = label.split(' ');
    for (let i = 0; i + parts.length <= ws.length; i++) {
      if (parts.every((p, k) => ws[i + k] === p)) return { at: i, length: parts.length };
    }
  }
  return null;
}

const LABEL_WORDS = new Set([...SURNAME, ...GIVEN, ...NATIONALITY, ...OTHER_LABELS].flatMap((l) => l.split(' ')));
const LONG_LABEL_WORDS = [...LABEL_WORDS].filter((w) => w.length >= 6);

/**
 * A label word, also as the OCR misreads a long one ("SUMAME" for SURNAME: two edits in seven
 * letters, one in six), so a misread label is not taken for the name beside it. Short words are
 * matched exactly: JAMES is one letter from NAMES.
 */
const isLabelWord = (w: string) =>
  LABEL_WORDS.has(w) ||
  /^\d+$/.test(w) ||
  w.length === 1 ||
  (w.length >= 6 && LONG_LABEL_WORDS.some((l) => editDistance(w, l) <= (l.length >= 7 ? 2 : 1)));

/** Levenshtein distance (short words only). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The letters-only value of a name field (digits and stray label words dropped). */
function nameValue(line: string): string | null {
  // A bar is the OCR's reading of a frame or a picture's edge: the value is after the last one
  // that has letters after it (a frame's bar closes a line too: "Sgndergaard |").
  const part = line.split('|').findLast((p) => /\p{L}/u.test(p)) ?? '';
  // A middle initial with its dot ending the line ("LIAM R."), as US licences print it, is part of
  // the name; other single letters are marks.
  const initial = /\p{L}{2,}\s+\p{L}\.[^\p{L}\d]*$/u.test(part);
  const ws = normalizeName(part)
    .split(' ')
    .filter((w, i, all) => (w.length >= 2 || isNamePrefix(w, all[i + 1]) || (initial && i > 0 && i === all.length - 1)) && !/\d/.test(w));
  // Junk before a name (a stray mark read as letters) is short: drop leading 1-2 letter words that
  // are no particle when a real word follows ("IN INGRID SOFIE"; "DE LA CRUZ", "O BRIAIN", "D
  // ANGELO" for D'ANGELO and "LI NA" stay). Other single letters are dropped as marks.
  while (
    ws.length > 1 &&
    ws[0]!.length <= 2 &&
    !PARTICLES.has(ws[0]!) &&
    !isNamePrefix(ws[0]!, ws[1]) &&
    ws.slice(1).some((w) => w.length >= 3)
  )
    ws.shift();
  const value = ws.join(' ');
  return value.length >= 2 && !ws.every(isLabelWord) ? value : null;
}

/** A line's start up to a numbered label `n` and what follows it (`after`): a stray mark or two may come first ("\\ 1."). */
const numberedLabel = (n: string, after: string) => `^[^A-Za-z0-9]*(?:[A-Za-z]{1,2}[^A-Za-z0-9]+)?${n}${after}`;

/**
 * A licence's numbered field (the issue, expiry or number field: AAMVA's 4a, 4b, 4d, the EU's 4a.,
 * 4b.; AAMVA's 12 REST, 15 SEX, 16 HGT, 17 WGT, 18 EYES): the page is laid out by field numbers.
 */
const NUMBERED_LAYOUT = /(?:^|\s)4[ABD][.\s]|\b(?:12\s*REST|15\s*SEX|16\s*HGT|17\s*WGT|18\s*EYES)/i;

/** A line that holds a name and no other digit than its field number before it (not a row of values). */
const nameLine = (line: string) => /^[^A-Za-z0-9]*(?:\d[^A-Za-z0-9]+)?[^0-9]*$/.test(line) && nameValue(line) !== null;

interface Labelled {
  value: string;
  /** The line the label stands on. */
  line: number;
  /** Found by a label's words ("Given names"), or by its field number on a page laid out by them: a name stands above it. */
  underName: boolean;
}

function labelledName(lines: string[], labels: string[]): Labelled | null {
  const numbered = labels[0]!;
  // "1. MARTINEZ GARCIA": a numbered label and its value on one line (after a stray mark or two
  // read from the card's edge or the portrait: "\\ 1. Lindqvist"). Its dot may be lost ("1 O
  // BRIAIN") where the next line holds the next field's label with its dot ("2. METTE"), or
  // where a field beside it, within two lines, shows its own number dotless too ("1 AL-RASHID",
  // a line of specks, "2 AICHALUCJA": dots lost on a card tilted on a hand): a digit alone is as
  // often a speck read from the card, two numbers in their order are the layout.
  // The dot may be read against the value ("2.RUTA"): a letter follows it all the same.
  const dotted = new RegExp(`${numberedLabel(numbered, '[.)]\\s*(?=[A-Za-z])')}(.+)$`);
  const dotless = new RegExp(`${numberedLabel(numbered, '\\s+(?=[A-Za-z])')}(.+)$`);
  // Under the surname's line, its dot may be read as another mark ("2» JORGE"), and a stray digit
  // may stand before it as a letter may ("3 2 LIAM R.").
  const markedUnderName = new RegExp(`^[^A-Za-z0-9]*(?:[A-Za-z0-9]{1,2}[^A-Za-z0-9]+)?${numbered}[^A-Za-z0-9\\s]?\\s+(?=[A-Za-z])(.+)$`);
  const nextDotted = new RegExp(numberedLabel(String(Number(numbered) + 1), '[.)]\\s*[A-Za-z]'));
  // A 1 read as an upright stroke ("|. KAZLAUSKIENE": a bar, a bracket, an l or an I) is the label
  // where the next line holds the next field's number with its dot.
  const strokeForOne = numbered === '1' ? new RegExp(`${numberedLabel('[|lI\\[\\]!]', '[.)]\\s*(?=[A-Za-z])')}(.+)$`) : null;
  const beside = ([-1, 1] as const).map((step) => ({
    step,
    label: new RegExp(numberedLabel(String(Number(numbered) + step), '[.)]?\\s+[A-Za-z0-9]{2}')),
  }));
  // The given names' number under the surname's line, on a page laid out by field numbers ("2
  // SOUZA" over "2 JORGE": the surname's 1 misread as another digit, or lost): the 2 is the label.
  const numberedPage = lines.some((l) => NUMBERED_LAYOUT.test(l));
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const ws = normalizeName(raw).split(' ').filter(Boolean);
    const nextFollows = () => nextDotted.test(lines[i + 1] ?? '');
    const besideFollows = () => beside.some(({ step, label }) => [1, 2].some((k) => label.test(lines[i + step * k] ?? '')));
    const underName = () => numbered === '2' && numberedPage && i > 0 && nameLine(lines[i - 1]!);
    const inline =
      dotted.exec(raw) ??
      (nextFollows() || besideFollows() ? dotless.exec(raw) : null) ??
      (underName() ? markedUnderName.exec(raw) : null) ??
      (nextFollows() ? strokeForOne?.exec(raw) : null);
    if (inline && /^\d$/.test(numbered)) {
      const v = nameValue(inline[1]!);
      if (v) return { value: v, line: i, underName: numberedPage };
    }
    const found = findLabel(ws, labels.slice(1));
    if (!found) continue;
    // The rest of the line after the label (bilingual labels such as "Apellidos / Surname" are dropped).
    // A misread word before another label word is part of the label ("GRVEN NAMES").
    const after = ws.slice(found.at + found.length);
    let lastLabel = -1;
    after.forEach((w, k) => {
      if (w.length >= 4 && isLabelWord(w)) lastLabel = k;
    });
    const rest = after.slice(lastLabel + 1).filter((w) => !isLabelWord(w));
    if (rest.length && rest.join('').length >= 3) return { value: rest.join(' '), line: i, underName: true };
    for (let j = i + 1; j < Math.min(lines.length, i + 3); j++) {
      const v = nameValue(lines[j]!);
      if (v) return { value: v, line: i, underName: true };
    }
  }
  return null;
}

/**
 * The surname when its own label was lost (a short label such as "LN" read as a stray mark, a
 * licence's 1 misread): on every layout read here it is the value printed just above the given
 * names' label.
 */
function nameAboveLabel(lines: string[], given: Labelled): string | null {
  // A "2" found alone on a page not laid out by field numbers is as likely junk (a card read on its
  // side): the line above it is no surname.
  return given.underName && given.line > 0 ? nameValue(lines[given.line - 1]!) : null;
}

/**
 * The nationality: an ICAO state code (the `mrz` package's list) after its label on the same line,
 * else the last one on the next two lines (values stand right of the labels; junk letters read off
 * the portrait's edge stand left of them, and a three-letter junk word is not a state).
 */
function labelledNationality(lines: string[]): string | null {
  for (let i = 0; i < lines.length; i++) {
    const ws = normalizeName(lines[i]!).split(' ').filter(Boolean);
    const found = findLabel(ws, NATIONALITY);
    if (!found) continue;
    const sameLine = ws.slice(found.at + found.length).find((w) => isStateCode(w) && !isLabelWord(w));
    if (sameLine) return sameLine;
    for (let j = i + 1; j < Math.min(lines.length, i + 3); j++) {
      const code = lines[j]!.match(/\b[A-Z]{3}\b/g)
        ?.filter((w) => isStateCode(w) && !isLabelWord(w))
        .pop();
      if (code) return code;
    }
  }
  return null;
}

const isStateCode = (w: string) => /^[A-Z]{3}$/.test(w) && Object.hasOwn(states, w);

/** Surname, given names and nationality from OCR text by their labels; null where not found. */
export function printedFields(text: string): PrintedFields {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const given = labelledName(lines, GIVEN);
  const givenNames = given?.value ?? null;
  const surname = labelledName(lines, SURNAME)?.value ?? (given ? nameAboveLabel(lines, given) : null);
  return {
    surname,
    givenNames: givenNames && givenNames !== surname ? givenNames : null,
    nationality: labelledNationality(lines),
  };
}
