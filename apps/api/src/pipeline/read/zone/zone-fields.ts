import { states } from 'mrz';
import type { Proposal } from '../../evidence/candidates.js';
import { checkDigit, LAYOUTS, layoutsFor, take, type CheckedSpan, type LayoutTable, type Span, type ZoneLayout } from './zone-layouts.js';
import { ZONE_TUNING } from './zone-tuning.js';

/** A zone read field by field: each field's own check digit says whether that field was read right. */
export interface ZoneReading {
  layout: ZoneLayout;
  /** The lines as fitted, look-alikes repaired where a check digit asked for it. */
  lines: string[];
  documentCode: string;
  checks: {
    documentNumber: boolean;
    dateOfBirth: boolean;
    /** null where the layout has no expiry (the old French card). */
    expiryDate: boolean | null;
    /** null where the layout has no composite digit (visas). */
    composite: boolean | null;
  };
  /** Look-alike characters swapped for check digits to hold. */
  repairs: number;
  /** The name field shows no sign of a misreading (its line's start and the issuing state read as a zone's, no digit in it). */
  nameSure: boolean;
  /** The name field is full to its end: the name may be cut. */
  nameTruncated: boolean;
  proposals: Proposal[];
}

/** How many checked fields hold: what ranks two fittings of the same lines. */
export const checksHeld = (z: ZoneReading): number =>
  [z.checks.documentNumber, z.checks.dateOfBirth, z.checks.expiryDate, z.checks.composite].filter((c) => c === true).length;

/**
 * The fields of a zone's lines (already fitted to their width), each proposed with whether its own
 * check digit holds. Look-alikes (O and 0, I and 1, B and 8 ...) are swapped where a field's check
 * fails and only where the swap makes it hold. Null when too few checks hold for these lines to
 * be a zone at all (`ZONE_TUNING.minChecksHeld`); of the layouts the lines may be, the one whose
 * checks hold best.
 */
export function readZoneFields(lines: readonly string[], opts: { nameSure?: boolean; now?: Date } = {}): ZoneReading | null {
  let best: ZoneReading | null = null;
  for (const layout of layoutsFor(lines)) {
    const reading = readAs(layout, lines, opts.now ?? new Date(), opts.nameSure ?? true);
    if (reading && (!best || checksHeld(reading) > checksHeld(best))) best = reading;
  }
  return best;
}

function readAs(layout: ZoneLayout, read: readonly string[], now: Date, lineStartSure: boolean): ZoneReading | null {
  const t = LAYOUTS[layout];
  const lines = withDigitsWhereOnlyDigits(t, read);
  let repairs = 0;
  const birth = readCheckedDigits(t.dateOfBirth, lines);
  const expiry = t.expiryDate ? readCheckedDigits(t.expiryDate, lines) : null;
  for (const f of [birth, expiry]) if (f) repairs += f.repairs;
  const fixed = [...lines];
  birth.write(fixed);
  expiry?.write(fixed);
  const number = chosenNumber(t, readNumber(t, fixed), fixed);
  repairs += number.repairs;
  number.write(fixed);
  const composite = compositeHolds(t, fixed);
  const checks = {
    documentNumber: number.holds,
    dateOfBirth: birth.holds && mrzDate(birth.value, 'birth', now) !== null,
    expiryDate: expiry ? expiry.holds && mrzDate(expiry.value, 'expiry', now) !== null : null,
    composite,
  };
  const held = [checks.documentNumber, checks.dateOfBirth, checks.expiryDate].filter((c) => c === true).length;
  if (held + (composite ? 1 : 0) < ZONE_TUNING.minChecksHeld) return null;

  const code = take(fixed, t.documentCode).replace(/</g, '');
  const state = take(fixed, t.issuingState);
  // Junk read as zone-like lines (a licence's print, a pattern) can hold two checks by chance among
  // the many fittings tried: a zone also has a zone's shape, a document code, a state's code for
  // its issuer or holder, and a name field of letters.
  const holder = t.nationality ? take(fixed, t.nationality) : 'FRA';
  const nameLetters = take(fixed, t.name).replace(/</g, '');
  const shaped =
    /^[PIACV]/.test(code) &&
    (isStateCode(state) || isStateCode(holder)) &&
    nameLetters.length >= 2 &&
    (nameLetters.match(/\d/g)?.length ?? 0) <= ZONE_TUNING.mostDigitsInName;
  if (!shaped) return null;
  const { surname, givenNames, truncated, digitInName, digitInGiven, strayLetter, separated } = nameOf(t, fixed);
  // No check digit covers the name: how sure each part is comes from signs of the line around it.
  // The surname follows the line's start: a misread start (its code given back, a letter alone
  // beside a filler, no `<<` before the given names, so the whole name read as surname) leaves it
  // unsure. One lesser sign leaves it reported but not settled (the print is read to confirm it):
  // a digit read in it (a letter's look-alike), a state no state has (letters of the start lost
  // into the name), a surname of three letters or fewer (as often a longer one a glare spot cut).
  // The given names, after the `<<`, are unsure only for a digit read among them.
  const c = ZONE_TUNING.confidence;
  const signs = [digitInName, !isStateCode(state), surname.replace(/[^A-Z]/g, '').length < ZONE_TUNING.sureSurnameLetters].filter(
    Boolean,
  ).length;
  const misreadStart = !lineStartSure || strayLetter || !separated || !/^[PIACV]/.test(code);
  const surnameConfidence = misreadStart || signs > 1 ? c.unsureName : signs === 1 ? c.shortName : c.sureName;
  const givenConfidence = digitInGiven || !separated ? c.unsureName : c.sureName;
  const nameSure = surnameConfidence === c.sureName && givenConfidence === c.sureName;
  const proposals: Proposal[] = [];
  const field = (f: Proposal['field'], value: string | null, confidence: number, checked: boolean | null, more: Partial<Proposal> = {}) => {
    if (value) proposals.push({ field: f, value, confidence, checked, ...more });
  };
  const checkedConfidence = (holds: boolean, repaired: boolean) =>
    holds ? (repaired ? ZONE_TUNING.confidence.repaired : ZONE_TUNING.confidence.checked) : ZONE_TUNING.confidence.failed;
  field('documentNumber', number.value.replace(/</g, ''), checkedConfidence(number.holds, number.repairs > 0), number.holds, {
    repaired: number.repairs > 0,
  });
  const date = (f: 'dateOfBirth' | 'expiryDate', d: CheckedRead | null, holds: boolean | null) => {
    const iso = d && mrzDate(d.value, f === 'dateOfBirth' ? 'birth' : 'expiry', now);
    if (d && iso) field(f, iso, checkedConfidence(holds === true, d.repairs > 0), holds, { twoDigitYear: true, repaired: d.repairs > 0 });
  };
  date('dateOfBirth', birth, checks.dateOfBirth);
  date('expiryDate', expiry, checks.expiryDate);
  field('surname', surname, surnameConfidence, null, { truncated });
  field('givenNames', givenNames, givenConfidence, null, { truncated });
  const nationality = nationalityOf(t, layout, fixed);
  field('nationality', nationality.code, nationality.confidence, null);
  return { layout, lines: fixed, documentCode: code, checks, repairs, nameSure, nameTruncated: truncated, proposals };
}

/** A field read with its check digit, look-alikes swapped where that made the check hold. */
interface CheckedRead {
  value: string;
  holds: boolean;
  repairs: number;
  /** Writes the value and its check digit, as repaired, back into the lines. */
  write(lines: string[]): void;
}

/** Swapping a letter for the digit it looks like, or a digit for its letter. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '0': 'O',
  O: '0',
  '1': 'I',
  I: '1',
  '5': 'S',
  S: '5',
  '8': 'B',
  B: '8',
  '2': 'Z',
  Z: '2',
  '6': 'G',
  G: '6',
  D: '0',
  Q: '0',
};
/** Where only a letter may stand (a name), a digit read there is the letter it looks like. */
const AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };
/** Where only a digit may stand, a letter read there is the digit it looks like. */
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  T: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};

/**
 * The zone with the digits-only spans (dates and their check digits, the composite digit) turned
 * to digits where a look-alike letter was read: a date holds no letter, so nothing is guessed.
 */
function withDigitsWhereOnlyDigits(t: LayoutTable, lines: readonly string[]): string[] {
  const out = [...lines];
  const spans: Span[] = [t.dateOfBirth.value, t.dateOfBirth.check];
  if (t.expiryDate) spans.push(t.expiryDate.value, t.expiryDate.check);
  if (t.composite) spans.push(t.composite.check);
  for (const [line, at, length] of spans) {
    const l = out[line] ?? '';
    out[line] = l.slice(0, at) + [...l.slice(at, at + length)].map((c) => AS_DIGIT[c] ?? c).join('') + l.slice(at + length);
  }
  return out;
}

function writer(spans: readonly (readonly [Span, string])[]): (lines: string[]) => void {
  return (lines) => {
    for (const [[line, at, length], value] of spans) {
      const l = lines[line] ?? '';
      lines[line] = l.slice(0, at) + value.slice(0, length).padEnd(length, '<') + l.slice(at + length);
    }
  };
}

/** A dates' field (digits only): as read, its check digit holds or it does not. */
function readCheckedDigits(f: CheckedSpan, lines: readonly string[]): CheckedRead {
  const value = take(lines, f.value);
  const check = take(lines, f.check);
  return { value, holds: checkDigit(value) === check, repairs: 0, write: writer([[f.value, value]]) };
}

/**
 * The document number (letters and digits): as read, else with look-alikes swapped, the fewest
 * first (each swap is a chance for the check to hold on a wrong number), then the fewest letters
 * left alone among digits. A TD1 number longer than nine characters goes on in the optional data,
 * its check digit after it (the check digit's place holds a filler then).
 */
function readNumber(t: LayoutTable, lines: readonly string[]): NumberRead {
  let valueSpan = t.documentNumber.value;
  let checkSpan = t.documentNumber.check;
  if (t.numberContinues && take(lines, checkSpan) === '<') {
    const rest = take(lines, t.numberContinues);
    const end = rest.indexOf('<');
    if (end >= 2) {
      valueSpan = [valueSpan[0], valueSpan[1], valueSpan[2] + 1 + end - 1];
      checkSpan = [t.numberContinues[0], t.numberContinues[1] + end - 1, 1];
    }
  }
  const whole = take(lines, valueSpan);
  const value = valueSpan === t.documentNumber.value ? whole : whole.slice(0, 9) + whole.slice(10);
  const check = AS_DIGIT[take(lines, checkSpan)] ?? take(lines, checkSpan);
  const write = (v: string) => (ls: string[]) => {
    const asRead = valueSpan === t.documentNumber.value ? v : v.slice(0, 9) + '<' + v.slice(9);
    writer([
      [valueSpan, asRead],
      [checkSpan, check],
    ])(ls);
  };
  const asRead: CheckedRead = { value, holds: checkDigit(value) === check, repairs: 0, write: write(value) };
  if (asRead.holds) return { asRead, repaired: [] };
  const swappable = [...value].flatMap((c, i) => (LOOK_ALIKES[c] ? [i] : [])).slice(0, ZONE_TUNING.mostNumberSwaps);
  const variants: { value: string; swaps: number; lettersAmongDigits: number }[] = [];
  for (let mask = 1; mask < 1 << swappable.length; mask++) {
    const chars = [...value];
    let swaps = 0;
    swappable.forEach((i, bit) => {
      if (mask & (1 << bit)) {
        chars[i] = LOOK_ALIKES[chars[i]!]!;
        swaps++;
      }
    });
    const v = chars.join('');
    if (checkDigit(v) === check) variants.push({ value: v, swaps, lettersAmongDigits: v.match(/(?<=\d)[A-Z](?=\d)/g)?.length ?? 0 });
  }
  variants.sort((a, b) => a.swaps - b.swaps || a.lettersAmongDigits - b.lettersAmongDigits);
  return {
    asRead,
    repaired: variants.map((v) => ({
      value: v.value,
      holds: true,
      repairs: v.swaps,
      write: write(v.value),
      chance: chanceOfHolding(swappable.length, v.swaps),
    })),
  };
}

/** A document number as read and, where its check fails, the look-alike swaps that make it hold, fewest first. */
interface NumberRead {
  asRead: CheckedRead;
  repaired: (CheckedRead & { chance: number })[];
}

/**
 * The chance that a misread number's check digit holds on some swap of `swaps` look-alikes or
 * fewer among `swappable`: each variant tried holds by chance one time in ten. A repair is only as
 * much evidence as this chance is small.
 */
export function chanceOfHolding(swappable: number, swaps: number): number {
  let tried = 0;
  let ways = 1;
  for (let k = 1; k <= swaps; k++) {
    ways = (ways * (swappable - k + 1)) / k;
    tried += ways;
  }
  return 1 - 0.9 ** tried;
}

/** Whether the composite check digit holds over the lines as they stand; null where the layout has none. */
function compositeHolds(t: LayoutTable, lines: readonly string[]): boolean | null {
  return t.composite ? checkDigit(t.composite.covers.map((s) => take(lines, s)).join('')) === take(lines, t.composite.check) : null;
}

/**
 * The number a zone reports: as read where its check holds; else the repair its composite check
 * digit bears out too (two checks holding by chance is one in a hundred), else the fewest swaps
 * where those could hardly have held by chance (`ZONE_TUNING.mostRepairChance`); else as read,
 * its check failing, for the other readings to weigh.
 */
function chosenNumber(t: LayoutTable, n: NumberRead, lines: readonly string[]): CheckedRead {
  if (n.asRead.holds || !n.repaired.length) return n.asRead;
  if (t.composite) {
    const holdsWith = (r: CheckedRead) => {
      const fixed = [...lines];
      r.write(fixed);
      return compositeHolds(t, fixed) === true;
    };
    const borneOut = n.repaired.find(holdsWith);
    if (borneOut && !holdsWith(n.asRead)) return borneOut;
  }
  const fewest = n.repaired[0]!;
  return fewest.chance <= ZONE_TUNING.mostRepairChance ? fewest : n.asRead;
}

/**
 * A name field whose trailing fillers were read as L, K or C (the page's recogniser, or OCR-B on a
 * faint zone, `BERTHIER<C<C<CCCCCLLCL`): from a filler on, a tail of those letters and fillers only,
 * five characters or more with a filler among them after its first, is padding. A name's own last
 * word of such letters (`<<LUC`, a given name `KC`) is shorter or holds another letter.
 */
function withPaddingRestored(field: string): string {
  const tail = /<(?=[<LKC]*<[<LKC]*$)[<LKC]{4,}$/.exec(field);
  return tail ? field.slice(0, tail.index) + '<'.repeat(field.length - tail.index) : field;
}

/**
 * The name field: surname and given names parted by `<<`, fillers as spaces. Its end, padded with
 * fillers, is read by other recognisers as runs of L, K or C: after two fillers past the given
 * names all is padding, and so are last words of those letters alone. A digit in the surname is a
 * sign the line was misread (a name holds none): it is kept as a sign, dropped from the name.
 */
function nameOf(t: LayoutTable, lines: readonly string[]) {
  // Digits before the name are the card's edge or a fold read as marks (a name starts with a letter).
  const read = take(lines, t.name);
  const afterDigits = read.replace(/^[0-9]+(?=[A-Z])/, '');
  const field = withPaddingRestored(afterDigits);
  const [surnamePart = '', ...rest] = field.split('<<');
  const digitInName = afterDigits !== read || /\d/.test(surnamePart);
  // A name holds no digit: one read there is the letter it looks like (8ELSER for BELSER).
  const words = (s: string) =>
    [...s]
      .map((c) => AS_LETTER[c] ?? c)
      .join('')
      .replace(/[^A-Z<]/g, '')
      .split('<')
      .filter(Boolean);
  const surname = words(surnamePart).join(' ');
  let givenWords: string[];
  if (t.givenNames) {
    givenWords = words(take(lines, t.givenNames).split('<<')[0]!);
  } else {
    givenWords = words(rest.filter(Boolean)[0] ?? '');
    while (givenWords.length > 1 && /^[LKC]{3,}$/.test(givenWords[givenWords.length - 1]!)) givenWords.pop();
  }
  const truncated = !field.endsWith('<');
  // A lone letter before the name or within the surname: a glare spot or a fold took the rest.
  const strayLetter = field.startsWith('<') || surnamePart.split('<').some((w) => w.length === 1);
  const separated = t.givenNames !== undefined || field.includes('<<');
  const digitInGiven = /\d/.test(t.givenNames ? take(lines, t.givenNames) : rest.join('<<'));
  return { surname, givenNames: givenWords.join(' '), truncated, digitInName, digitInGiven, strayLetter, separated };
}

/**
 * The holder's nationality (no check digit covers it). Read as no state's code one character away
 * from the issuing state's (PER read 2ER), it is the issuing state's, less surely: most holders
 * are the issuing state's nationals, and no two codes one character apart are both misread so.
 */
function nationalityOf(t: LayoutTable, layout: ZoneLayout, lines: readonly string[]): { code: string; confidence: number } {
  const c = ZONE_TUNING.confidence;
  if (!t.nationality) return layout === 'FR-ID' ? { code: 'FRA', confidence: c.knownState } : { code: '', confidence: 0 };
  const code = take(lines, t.nationality).replace(/</g, '');
  if (isStateCode(code)) return { code, confidence: c.knownState };
  const state = take(lines, t.issuingState).replace(/</g, '');
  const oneApart = state.length === code.length && [...code].filter((ch, i) => ch !== state[i]).length === 1;
  return isStateCode(state) && oneApart ? { code: state, confidence: c.stateForNationality } : { code, confidence: c.unknownState };
}

/** ICAO 9303's specimen state, printed on published specimens (the `mrz` package's list lacks it). */
const SPECIMEN_STATES = new Set(['UTO']);

/** Whether a state code as read (fillers dropped) is one of ICAO 9303's: `D`, `UTO` and `XXA` are codes too. */
export function isStateCode(code: string): boolean {
  const c = code.replace(/</g, '');
  return Object.hasOwn(states, c) || SPECIMEN_STATES.has(c);
}

/**
 * A zone's YYMMDD as ISO, with the century most documents imply: a birth date in the past, an
 * expiry within the century's first 70 years. The fusion chooses again from the document's own
 * dates (a birth before the issue date, an expiry after it).
 */
export function mrzDate(yymmdd: string, kind: 'birth' | 'expiry', now = new Date()): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const currentYY = now.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > currentYY ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  const iso = `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}
