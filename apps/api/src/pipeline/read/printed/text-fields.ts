import type { FieldsExtracted } from '@service/contract';

/**
 * Fields from a document's free text, for documents read without an MRZ: its dates (in the order
 * its country writes them, by month name, by their labels) and a document number.
 */

/** True for a real calendar date in YYYY-MM-DD (rejects 2031-02-30 and 13th months). */
function isCalendarDate(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}

/** Month names and abbreviations as documents print them (English, French, German, Spanish, Italian). */
const MONTHS: Record<string, string> = Object.fromEntries(
  [
    ['JAN', 'JANUARY', 'JANV', 'JANVIER', 'ENE', 'ENERO', 'GEN', 'JANUAR'],
    ['FEB', 'FEBRUARY', 'FEV', 'FEVR', 'FEVRIER', 'FEBRERO', 'FEBBRAIO', 'FEBRUAR'],
    ['MAR', 'MARCH', 'MARS', 'MARZO', 'MAERZ', 'MARZ'],
    ['APR', 'APRIL', 'AVR', 'AVRIL', 'ABR', 'ABRIL', 'APRILE'],
    ['MAY', 'MAI', 'MAYO', 'MAG', 'MAGGIO'],
    ['JUN', 'JUNE', 'JUIN', 'JUNIO', 'GIU', 'GIUGNO', 'JUNI'],
    ['JUL', 'JULY', 'JUIL', 'JUILLET', 'JULIO', 'LUG', 'LUGLIO', 'JULI'],
    ['AUG', 'AUGUST', 'AOU', 'AOUT', 'AGO', 'AGOSTO'],
    ['SEP', 'SEPT', 'SEPTEMBER', 'SEPTEMBRE', 'SEPTIEMBRE', 'SET', 'SETTEMBRE'],
    ['OCT', 'OCTOBER', 'OCTOBRE', 'OCTUBRE', 'OKT', 'OKTOBER', 'OTT', 'OTTOBRE'],
    ['NOV', 'NOVEMBER', 'NOVEMBRE', 'NOVIEMBRE'],
    ['DEC', 'DECEMBER', 'DECEMBRE', 'DICIEMBRE', 'DIC', 'DEZ', 'DEZEMBER', 'DICEMBRE'],
  ].flatMap((names, i) => names.map((n) => [n, String(i + 1).padStart(2, '0')])),
);
// A month name's O may be read as a zero (27 0CT 2033): each O is matched as either. Its day may
// follow a letter directly, a label run into the date where the space between was lost ("4b. 27
// MAY 2034" read "a B27 MAY 2034"), when a space or a mark parts it from the
// month (letters and digits run together, AB12MAR1234, are a document number).
const MONTH_NAME_DATE = new RegExp(
  `(?<![0-9])(\\d{1,2})(?:(?<=\\b\\d{1,2})[ ./-]?|[ ./-])(${Object.keys(MONTHS)
    .map((m) => m.replace(/O/g, '[O0]'))
    .join('|')})[ ./-]?(\\d{4})\\b`,
  'g',
);

/**
 * A date whose month is JAN, JUN or JUL with its J lost, or read as a bracket or a bar, its thin
 * hook the first stroke the recogniser drops (15 JUN 2006 read 15 UN 2006 and 15)UN 2006 on an
 * expired licence, its expiry unread). What is left of
 * these three names is no other month's, and it is matched only between a day and a year.
 */
const J_MONTHS: Record<string, string> = { AN: '01', UN: '06', UL: '07' };
const J_LOST_DATE = /(?<![0-9])(\d{1,2})(?:[ ./-][)\]|]?|[)\]|])(AN|UN|UL)[ ./-]?(\d{4})\b/g;

/**
 * Whether a document issued on `issue` could expire on `expiry`: documents are valid for one year
 * (a residence permit; its expiry the day before the issue date's anniversary, or a few days off
 * it) to 15 (a licence), a few for 20. A past expiry ten months after the issue date or 24 years
 * after it is an expiry the OCR misread (2032 read 2022, 2029 read 2020, a lost date read as
 * 2000), with the issue date taken for the expiry: a genuine user rejected for document_expired
 *.
 */
function couldBeValidity(issue: string, expiry: string): boolean {
  const days = daysBetween(issue, expiry);
  return days >= MIN_VALIDITY_DAYS && days <= MAX_VALIDITY_DAYS;
}

const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/** The shortest validity of a document, in days (a year, less a few days' slack). */
const MIN_VALIDITY_DAYS = 360;

/** The longest validity of a document, in days (20 years and a half). */
const MAX_VALIDITY_DAYS = 20.5 * 365.25;

/** Countries that write dates month first (steered by the init field `country`). */
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'PW', 'MH']);

/** Day and month (either order) and a year: what fieldsFromText reads as a date. */
/** A year's last 1 read as an upright stroke, a bracket or a bar (26 MAR 203] for 2031), after a date's separator. */
const YEAR_ENDS_IN_STROKE = /(?<=[ ./-])((?:19|20)\d)[\]|[!I](?![A-Z0-9])/g;

const NUMERIC_DATE = /\b(\d{2})[ ./-]?(\d{2})[ ./-]?(\d{4})\b|\b(\d{4})-(\d{2})-(\d{2})\b/g;

/**
 * Dates that are neither the holder's nor the document's: a licence's card design revision (`REV
 * 07/01/2018`) and its document discriminator where printed as a date (AAMVA's `5 DD`). Read as
 * dates, they were taken for the expiry by their order, or stood between an issue date and a past
 * labelled expiry as if one were the other's issue. Their label is kept, the date dropped.
 */
const NOT_THE_DOCUMENTS_DATE = /(\bREV|(?<![A-Z0-9])\d?DD)[\s:.]*(?:\d{2}[./-]\d{2}[./-]\d{4}|\d{4}-\d{2}-\d{2})(?!\d)/g;

/**
 * A day's or a month's two digits split by a space the OCR put between them (22.1 2.2034 for
 * 22.12.2034: a 1 set narrow beside its neighbour), within a date separated by dots, slashes or
 * hyphens (the same one twice), so nothing but a date's group can match.
 */
const SPLIT_DAY = /(?<![\dA-Z])(\d) (\d)([./-])(\d{2})\3(\d{4})(?!\d)/g;
const SPLIT_MONTH = /(?<![\dA-Z])(\d{2})([./-])(\d) (\d)\2(\d{4})(?!\d)/g;

/**
 * A date whose two slashes were read as strokes (1, I, L or a bar): 12/22/2030 read 1212212030 on
 * a licence turned 14 degrees.
 * The same stroke twice, a year of this century or the last, and a calendar date made of the
 * groups around them: ten digits drawn at random are all three about once in 70,000.
 */
const SLASHES_READ_AS_STROKES = /(?<![\dA-Z])(\d{2})([1IL|])(\d{2})\2((?:19|20)\d{2})(?![\dA-Z])/g;

/** The ISO date that two-digit day and month groups and a year make, in the preferred order first, or null. */
function isoDate(a: string, b: string, year: string, monthFirst: boolean): string | null {
  const [dayFirst, monthFirstForm] = [`${year}-${b}-${a}`, `${year}-${a}-${b}`];
  const [preferred, other] = monthFirst ? [monthFirstForm, dayFirst] : [dayFirst, monthFirstForm];
  return isCalendarDate(preferred) ? preferred : isCalendarDate(other) ? other : null;
}

/**
 * A date whose day or month lost one digit to a mark beside it (06/28/2030 read V6/28/2030 by a
 * glare spot): separated as dates are, the year whole, one character of the day and month no
 * digit. It takes the one digit that makes it a date; where several would (V5/08/2016: 05, 15
 * or 25), it stays as read.
 */
const ONE_DIGIT_LOST = /(?<![A-Z0-9])([A-Z0-9]{2})([./-])([A-Z0-9]{2})\2(\d{4})(?!\d)/g;

function repairLostDigit(text: string, monthFirst: boolean): string {
  return text.replace(ONE_DIGIT_LOST, (whole, a: string, sep: string, b: string, year: string) => {
    const groups = a + b;
    const at = [...groups].findIndex((ch) => !/\d/.test(ch));
    if (at < 0 || /\D/.test(groups.slice(at + 1))) return whole;
    const dates = [...'0123456789']
      .map((digit) => groups.slice(0, at) + digit + groups.slice(at + 1))
      .filter((g) => isoDate(g.slice(0, 2), g.slice(2), year, monthFirst));
    return dates.length === 1 ? `${dates[0]!.slice(0, 2)}${sep}${dates[0]!.slice(2)}${sep}${year}` : whole;
  });
}

/**
 * Labels of dates, as the OCR reads them (accents dropped, upper case): an expiry's ("EXP", its E
 * sometimes lost; "Date of expiry", "Date d'expiration", "Gültig bis", an EU licence's 4b.), a
 * birth's and an issue's. The expiry's and the issue's are used; each tells a label line of two
 * fields ("Date of issue  Date of expiry" over two dates) from a label of one.
 */
const EXPIRY_LABEL =
  /\bD?EXPI|\bE?XP\b|\bCADUC|\bSCADEN|\bGULTIG|\bWAZNO|\bVALID (?:UNTIL|THRU|TO)\b|\bVALABLE|\bJUSQU|\bVALIDEZ|\bGELDIG|\b4B\b/;
const BIRTH_LABEL = /\bD[O0][B8]\b|BIRTH|NAISS|\bNE\W{0,2}E?\W{0,2} LE\b|GEBURT|NACIM|NASCITA|URODZ|GEBOORTE|^\W*3\b/;
const ISSUE_LABEL = /\bISS\b|ISSUE|DELIVR|EXPEDI|AUSSTELL|RILASC|WYDANIA|AFGIFTE|\b4A\b/;

const labelText = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();

export type DateLabel = 'expiry' | 'birth' | 'issue';
const DATE_LABELS: readonly (readonly [DateLabel, RegExp])[] = [
  ['expiry', EXPIRY_LABEL],
  ['birth', BIRTH_LABEL],
  ['issue', ISSUE_LABEL],
];

/**
 * What the date at `at` in `text` is labelled: by the text before it on its line, or, where that
 * holds no label, by the line above, when that line labels one field only; null when unlabelled
 * or labelled two ways.
 */
function dateLabel(text: string, at: number): DateLabel | null {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = labelText(text.slice(lineStart, at));
  const kinds = (s: string) => DATE_LABELS.filter(([, label]) => label.test(s)).map(([kind]) => kind);
  const own = kinds(before);
  if (own.length) return own.length === 1 ? own[0]! : null;
  const above = text
    .slice(0, Math.max(0, lineStart - 1))
    .split('\n')
    .findLast((l) => l.trim());
  if (!above || NUMERIC_DATE_IN_LINE.test(above)) return null;
  const theirs = labelsInOrder(labelText(above));
  if (theirs.length === 1) return theirs[0]!;
  // Labels in columns over their values ("3 DOB  4a ISS" over two dates): the date's place among
  // its line's dates is its label's place among the labels above.
  // Only where the line holds as many dates as there are labels: a date lost to a glare spot
  // would shift the others under the wrong label.
  const lineEnd = text.indexOf('\n', at);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const column = [...text.slice(lineStart, at).matchAll(NUMERIC_DATE)].length;
  return theirs.length >= 2 && [...line.matchAll(NUMERIC_DATE)].length === theirs.length ? theirs[column]! : null;
}

/** The date labels of a line in the order they stand (one kind once per place: `3 DOB` is one birth label). */
function labelsInOrder(line: string): DateLabel[] {
  const found = DATE_LABELS.flatMap(([kind, label]) =>
    [...line.matchAll(new RegExp(label.source, 'g'))].map((m) => ({ kind, at: m.index ?? 0 })),
  ).sort((a, b) => a.at - b.at);
  return found.filter((f, i) => i === 0 || f.kind !== found[i - 1]!.kind).map((f) => f.kind);
}
const NUMERIC_DATE_IN_LINE = /\d{2}[ ./-]?\d{2}[ ./-]?\d{4}/;

/**
 * Without an MRZ: a document number and dates from free text (DD MM YYYY, DD.MM.YYYY,
 * YYYY-MM-DD; MM DD YYYY where `country` writes dates month first).
 */
export function fieldsFromText(text: string, now: Date, country: string | null = null): FieldsExtracted {
  return readTextFields(text, now, country).fields;
}

/** A date read in free text, with what its label says it is (null: unlabelled, or labelled two ways). */
export interface DateRead {
  iso: string;
  label: DateLabel | null;
}

/** What `readTextFields` reads. */
export interface TextFieldsReading {
  fields: FieldsExtracted;
  /** The dates read within any document's validity, oldest first. */
  dates: DateRead[];
  /** The dates read beyond it (2082 for 2032, 2045 for 2015): misreadings, oldest first. */
  beyond: DateRead[];
  /**
   * The latest date, past and labelled an expiry, where no date before it could be its issue date
   * (those read are decades older: a birth date; the issue date lost or misread): not the expiry
   * of this reading alone (`fields.expiryDate` null), but one the side's readings may agree on
   * (`expiryAgreedWithoutIssue`). Null otherwise.
   */
  labelledExpiryAlone: string | null;
}

/**
 * `fieldsFromText`'s fields and the dates read, in one pass; apart, those beyond any document's
 * validity (2082 read for 2032): misread dates, most likely future expiries (a past date misread
 * that far ahead takes a larger error). Never an expiry to approve on; evidence, against a past
 * expiry read elsewhere, that the document may still be valid (`printedExpiryInDoubt`).
 */
export function readTextFields(text: string, now: Date, country: string | null = null): TextFieldsReading {
  const monthFirst = country !== null && MONTH_FIRST.has(country);
  // The OCR often loses the space between day and month ("2201 1991" for "22 01 1991").
  // A date that is no date in the expected order is read the other way (10/13/2029 on a card
  // whose country was not given).
  const withMonthNumbers = repairLostDigit(
    text
      .toUpperCase()
      .replace(SLASHES_READ_AS_STROKES, (whole, a: string, _: string, b: string, year: string) =>
        isoDate(a, b, year, monthFirst) ? `${a}/${b}/${year}` : whole,
      )
      .replace(YEAR_ENDS_IN_STROKE, '$11')
      .replace(SPLIT_DAY, '$1$2$3$4$3$5')
      .replace(SPLIT_MONTH, '$1$2$3$4$2$5')
      .replace(MONTH_NAME_DATE, (_, d: string, mon: string, y: string) => {
        // Written as ISO: unambiguous whatever order the country uses.
        return ` ${y}-${MONTHS[mon.replace(/0/g, 'O')]!}-${d.padStart(2, '0')} `;
      })
      .replace(J_LOST_DATE, (_, d: string, mon: string, y: string) => ` ${y}-${J_MONTHS[mon]!}-${d.padStart(2, '0')} `),
    monthFirst,
  ).replace(NOT_THE_DOCUMENTS_DATE, '$1 ');
  const read = [...withMonthNumbers.matchAll(NUMERIC_DATE)]
    .map((m) => ({
      iso: m[4] ? `${m[4]}-${m[5]}-${m[6]}` : isoDate(m[1]!, m[2]!, m[3]!, monthFirst),
      label: dateLabel(withMonthNumbers, m.index ?? 0),
    }))
    .filter((d): d is { iso: string; label: DateLabel | null } => d.iso !== null && isCalendarDate(d.iso))
    .sort((a, b) => (a.iso < b.iso ? -1 : a.iso > b.iso ? 1 : 0));
  const today = now.toISOString().slice(0, 10);
  // No document is valid for more than about 20 years: a date further ahead is a misreading
  // (3095 for 2035), no expiry to approve on.
  const horizon = new Date(now.getTime() + MAX_VALIDITY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const beyond: DateRead[] = [];
  while (read.length && read[read.length - 1]!.iso > horizon) beyond.unshift(read.pop()!);
  const dates = read.map((d) => d.iso);
  const latest = read[read.length - 1];
  // An EU licence's field 5 (its number, of any length, on a line of its own); else letters and
  // digits (X1234567), a date by month name (21DEC1982) already written as a date; else digits
  // alone, 9 to 12 of them (a date has 8).
  const number =
    /^[^A-Za-z0-9]*5[.)]\s+([A-Z0-9]{5,15})\s*$/m.exec(text)?.[1] ??
    /\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{7,12}\b/.exec(withMonthNumbers)?.[0] ??
    /\b\d{9,12}\b/.exec(text)?.[0] ??
    null;
  // The latest date is the expiry when it is in the future. A past one is the expiry when the
  // date before it could be its issue date and either three or more were read (birth, issue,
  // expiry) or it is labelled an expiry. Two past dates alone are a birth and an issue date as
  // often as a birth and an expiry date (an expiry the OCR misread): unknown then, never a false
  // document_expired. Nor is a past date labelled as the issue's: the expiry after it was
  // misread into the past (16 04 2029 read 16 04 2020 under its label: the issue date
  // taken for the expiry had rejected a genuine user).
  // Or a past date on the same day of the year as the one before it, whole years later within a
  // validity: a document's issue date and its expiry (a birth date seldom shares their day).
  const anniversary = (from: string, to: string) => from.slice(4) === to.slice(4) && couldBeValidity(from, to);
  const pastExpiry =
    latest !== undefined &&
    dates.length >= 2 &&
    latest.label !== 'issue' &&
    (dates.length >= 3 || latest.label === 'expiry' || anniversary(dates[dates.length - 2]!, latest.iso)) &&
    couldBeValidity(dates[dates.length - 2]!, latest.iso);
  const labelledExpiryAlone =
    latest !== undefined &&
    latest.label === 'expiry' &&
    latest.iso < today &&
    !pastExpiry &&
    dates.slice(0, -1).every((d) => daysBetween(d, latest.iso) > MAX_VALIDITY_DAYS)
      ? latest.iso
      : null;
  const fields = {
    fullName: null,
    documentNumber: number,
    dateOfBirth: dates.length === 1 && dates[0]! >= today ? null : (dates.find((d) => d < today) ?? null),
    expiryDate: latest && (latest.iso >= today || pastExpiry) ? latest.iso : null,
    nationality: null,
  };
  return { fields, dates: read, beyond, labelledExpiryAlone };
}
