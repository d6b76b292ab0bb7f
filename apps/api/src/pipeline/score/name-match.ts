/**
 * `name_match`: whether the name the user typed is the name on the document, in [0, 1].
 *
 * The document's name has two parts, compared apart: the primary identifier (surname, from the
 * MRZ's `<<` split or the printed "Surname" label) and the secondary identifiers (given names).
 * The typed name is one string in either order, so every split of it into a surname run (at its
 * start or its end) and the rest is tried, and the best reading wins.
 *
 * - The surname is required. Equal after normalisation (case, accents dropped, ICAO 9303
 *   transliteration Ø->OE, Å->AA, Ü->UE, Ä->AE, ß->SS tried both ways, hyphens, spaces and
 *   apostrophes ignored, particles such as van, de, al- optional) scores 1; one part of a double
 *   surname 0.9; one letter off (a typo or a misread), or read with one to three letters lost in
 *   one place (a glare spot over a zone's first letters or a printed surname's middle), 0.7, which sends to review with
 *   `name_mismatch`; anything else scores 0.3, a rejection, whatever the given names score.
 * - Given names may be abbreviated to an initial (0.9), reordered, or partly omitted (0.95). A
 *   3+ letter prefix (Alex for Alexander, but also Jan for Janina) or one letter off reviews
 *   (0.8, 0.7); one letter off a printed given name of 4+ letters that the recogniser was unsure
 *   of (`DocumentName.unsureWords`), or read as another letter just where the user typed a mark
 *   (Kateřina read KATEFINA), is a misreading (0.9). A typed given name that is on the
 *   document nowhere sends to review (0.7); when none of them is there it is another person
 *   (0.3). Only a surname typed: review (0.75). A name cut by the MRZ (its field full to the end)
 *   may be a prefix of the typed one (0.95).
 *
 * The policy reads the score: under 0.6 rejects, under 0.85 reviews (see policy.ts).
 */

const SPECIAL: Record<string, string> = {
  ß: 'SS',
  Æ: 'AE',
  æ: 'AE',
  Ø: 'O',
  ø: 'O',
  Œ: 'OE',
  œ: 'OE',
  Ł: 'L',
  ł: 'L',
  Đ: 'D',
  đ: 'D',
  Þ: 'TH',
  þ: 'TH',
  ı: 'I',
  Ð: 'D',
  ð: 'D',
  Ĳ: 'IJ',
  ĳ: 'IJ',
};

/** Uppercase ASCII letters and single spaces; diacritics removed (É -> E, Ñ -> N, Ø -> O). */
export function normalizeName(name: string): string {
  return name
    .replace(/[ßÆæØøŒœŁłĐđÞþıÐðĲĳ]/g, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

const ICAO: Record<string, string> = { Ä: 'AE', ä: 'AE', Ö: 'OE', ö: 'OE', Ü: 'UE', ü: 'UE', Å: 'AA', å: 'AA', Ø: 'OE', ø: 'OE' };

/** ICAO 9303 transliteration where it differs from dropping the accent: Ä/Ö/Ü -> AE/OE/UE, Å -> AA, Ø -> OE. */
export function icaoTransliteration(name: string): string {
  return normalizeName(name.replace(/[ÄäÖöÜüÅåØø]/g, (c) => ICAO[c]!));
}

/**
 * Both transliterations land on one form: AE, OE, UE and AA fold to their first vowel, so MUELLER,
 * MULLER and Müller typed as Muller meet (the MRZ of one country writes Ü as UE, another as U).
 */
export function foldTransliteration(ascii: string): string {
  return ascii.replace(/AE/g, 'A').replace(/OE/g, 'O').replace(/UE/g, 'U').replace(/AA/g, 'A');
}

/** Name particles that a person may write or leave out (van der Berg, de la Cruz, al-Hassan). */
export const PARTICLES: ReadonlySet<string> = new Set([
  'VAN',
  'VON',
  'DER',
  'DEN',
  'DE',
  'DI',
  'DA',
  'DO',
  'DOS',
  'DAS',
  'DEL',
  'DELLA',
  'LA',
  'LE',
  'LO',
  'DU',
  'TER',
  'TEN',
  'AL',
  'EL',
  'BIN',
  'BINT',
  'BEN',
  'IBN',
  'ABU',
  'Y',
  'E',
]);

interface Token {
  /** Plain and ICAO forms (one when they agree). */
  forms: string[];
  folded: string;
  particle: boolean;
  /** Written as one letter (Þ. is an initial, though it is spelt TH). */
  initial: boolean;
  /** Where, in the plain form, letters were written with a mark (Ř, Ø, Ð), where the forms align. */
  marked: ReadonlySet<number>;
}

function tokenize(raw: string): Token[] {
  const plain = normalizeName(raw).split(' ').filter(Boolean);
  const icao = icaoTransliteration(raw).split(' ').filter(Boolean);
  const aligned = icao.length === plain.length;
  // The words as written, letters only: a letter spelt with two (Þ, Æ) is still one here.
  const written = raw
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const writtenAligned = written.length === plain.length;
  const withMarks = raw.split(/[^\p{L}\p{M}]+/u).filter(Boolean);
  return plain.map((p, i) => {
    const forms = aligned && icao[i] !== p ? [p, icao[i]!] : [p];
    const initial = p.length === 1 || (writtenAligned && [...written[i]!].length === 1);
    const marked = withMarks.length === plain.length ? markedPositions(withMarks[i]!, p) : NO_POSITIONS;
    return { forms, folded: foldTransliteration(p), particle: PARTICLES.has(p), initial, marked };
  });
}

const NO_POSITIONS: ReadonlySet<number> = new Set();

/** The positions in `plain` (the word normalised) of the letters `word` writes with a mark; none where they do not align. */
function markedPositions(word: string, plain: string): ReadonlySet<number> {
  const at = new Set<number>();
  let pos = 0;
  for (const unit of markedLetters(word)) {
    if (unit.marked) for (let k = 0; k < unit.letters.length; k++) at.add(pos + k);
    pos += unit.letters.length;
  }
  return pos === plain.length ? at : NO_POSITIONS;
}

/** Every spelling of a run of tokens joined without spaces, with and without its particles. */
function joinedForms(run: Token[]): { exact: Set<string>; folded: Set<string> } {
  const exact = new Set<string>();
  const folded = new Set<string>();
  for (const keepParticles of [true, false]) {
    const kept = keepParticles ? run : run.filter((t) => !t.particle);
    if (!kept.length) continue;
    let spellings = [''];
    for (const t of kept) spellings = spellings.flatMap((s) => t.forms.map((f) => s + f)).slice(0, 16);
    for (const s of spellings) exact.add(s);
    folded.add(kept.map((t) => t.folded).join(''));
  }
  return { exact, folded };
}

const intersects = (a: Set<string>, b: Set<string>) => [...a].some((x) => b.has(x));

/** Levenshtein distance, stopping early once it exceeds `max`. */
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

export const NAME_SCORES = {
  exact: 1,
  folded: 0.95,
  surnamePart: 0.9,
  abbreviated: 0.9,
  shortened: 0.8,
  givenOmitted: 0.95,
  truncated: 0.95,
  onlySurname: 0.75,
  oneLetterOff: 0.7,
  unsureGiven: 0.9,
  extraGiven: 0.7,
  otherPerson: 0.3,
} as const;

/** The typed surname run against the document's surname. */
function surnameScore(typed: Token[], doc: Token[], truncated: boolean, givenTyped: boolean): number {
  const t = joinedForms(typed);
  const d = joinedForms(doc);
  if (intersects(t.exact, d.exact)) return NAME_SCORES.exact;
  if (intersects(t.folded, d.folded)) return NAME_SCORES.folded;
  // The MRZ cut a long name at the end of its line: the document's surname is a prefix of the typed one.
  if (truncated && [...d.exact].some((ds) => ds.length >= 4 && [...t.exact].some((ts) => ts.startsWith(ds)))) return NAME_SCORES.truncated;
  // One part of a double surname (Martínez for MARTÍNEZ GARCÍA; Smith for SMITH-JONES).
  const docParts = doc.filter((x) => !x.particle);
  if (docParts.length >= 2) {
    const typedJoined = joinedForms(typed.filter((x) => !x.particle));
    if (docParts.some((p) => p.forms.some((f) => typedJoined.exact.has(f)) || typedJoined.folded.has(p.folded)))
      return NAME_SCORES.surnamePart;
  }
  // The parts of a double surname in another order: review.
  const sortedParts = (run: Token[]) =>
    run
      .filter((x) => !x.particle)
      .map((x) => x.folded)
      .sort()
      .join(' ');
  if (docParts.length >= 2 && sortedParts(typed) === sortedParts(doc)) return NAME_SCORES.oneLetterOff;
  // A double surname typed where the document has one of its parts: review, not a pass (only
  // when given names were typed too, else a given name would pass for a surname part).
  const typedParts = typed.filter((x) => !x.particle);
  if (givenTyped && typedParts.length >= 2 && typedParts.some((p) => p.forms.some((f) => d.exact.has(f)) || d.folded.has(p.folded)))
    return NAME_SCORES.oneLetterOff;
  // One letter off, folded spellings too (SCHROEDER typed, SCHRÖDER read SCHRADER): review, never a pass.
  const longest = Math.max(...[...d.exact].map((s) => s.length));
  const typedSpellings = [...t.exact, ...t.folded];
  const docSpellings = [...d.exact, ...d.folded];
  if (longest >= 5 && typedSpellings.some((ts) => docSpellings.some((ds) => editDistance(ts, ds, 1) <= 1))) return NAME_SCORES.oneLetterOff;
  // The typed surname with a few letters lost in one place (a glare spot over the start of a zone's
  // name: SCHROEDER read ROEDER; over a printed surname's middle: AL-RASHID read
  // AL-..SHID; each had rejected a genuine user): review, never a pass.
  if (typedSpellings.some((ts) => docSpellings.some((ds) => lostInOnePlace(ts, ds)))) return NAME_SCORES.oneLetterOff;
  return NAME_SCORES.otherPerson;
}

/** Letters a surname read may have lost in one place, and the letters it must keep, to be taken for the typed one cut (`lostInOnePlace`). */
const CUT_SURNAME = { lostAtMost: 3, keptAtLeast: 5 } as const;

/** Whether `read` is `typed` with one to CUT_SURNAME.lostAtMost letters in a row lost: at its start, its end or within. */
function lostInOnePlace(typed: string, read: string): boolean {
  const lost = typed.length - read.length;
  if (read.length < CUT_SURNAME.keptAtLeast || lost < 1 || lost > CUT_SURNAME.lostAtMost) return false;
  for (let at = 0; at <= read.length; at++) if (typed.startsWith(read.slice(0, at)) && typed.endsWith(read.slice(at))) return true;
  return false;
}

/** One typed given name against one of the document's (`unsure`: the recogniser was unsure of how it read it). */
function givenTokenScore(t: Token, d: Token, truncated: boolean, unsure: boolean): number {
  if (t.forms.some((f) => d.forms.includes(f))) return NAME_SCORES.exact;
  if (t.folded === d.folded) return NAME_SCORES.folded;
  // An initial stands for a name with its first letter as spelt (Þ. for THORA, and for TORA).
  if (t.initial) {
    const letters = initialLetters(t);
    return d.forms.some((df) => letters.some((l) => df.startsWith(l))) ? NAME_SCORES.abbreviated : 0;
  }
  // Every spelling of each, folded ones too: a typed JUERGEN is one letter off a printed JÜRGEN
  // read JIRGEN only once both are folded (JURGEN).
  let best = 0;
  for (const tf of new Set([...t.forms, t.folded]))
    for (const df of new Set([...d.forms, d.folded]))
      best = Math.max(best, givenSpellingScore(tf, df, truncated, unsure, tf === t.forms[0] ? t.marked : NO_POSITIONS));
  return best;
}

/**
 * The first letters a typed initial stands for: its spelling's first, and where one letter is
 * spelt with two (Þ, TH) the recogniser's stand-ins for it (`MISREAD_AS`): a printed ÞÓRA is read
 * PORA or bora, with confidence, and a typed Þ. had sent two genuine users to review
 *. A typed T. is one letter: it stands for no P or B.
 */
function initialLetters(t: Token): string[] {
  const spelt = t.forms[0]!;
  const standIns = spelt.length > 1 ? MISREAD_AS.filter((m) => m.typed === spelt && !m.only).map((m) => m.read) : [];
  return [spelt[0]!, ...standIns];
}

/**
 * One spelling of a typed given name against one of a document's, neither equal to the other;
 * `marked`, where the typed spelling's letters were typed with a mark.
 */
function givenSpellingScore(tf: string, df: string, truncated: boolean, unsure: boolean, marked: ReadonlySet<number>): number {
  if (tf.length === 1 && df.startsWith(tf)) return NAME_SCORES.abbreviated; // an initial
  // Alex for Alexander, but also Jan for Janina: a person looks.
  if (tf.length >= 3 && df.startsWith(tf)) return NAME_SCORES.shortened;
  if (truncated && tf.startsWith(df)) return NAME_SCORES.truncated; // the MRZ cut the name
  if (Math.min(tf.length, df.length) >= 3 && editDistance(tf, df, 1) <= 1)
    // A printed given name the recogniser read unsurely and one letter off is the typed one misread
    // (EILcEN, LAGNY for DAGNY); read with confidence, one letter off is another name (Marie, María).
    // So is one read as another letter just where the user typed a mark: the recogniser has no
    // class for Ř and reads a printed KATEŘINA as KATEFINA, with confidence.
    return (unsure || substitutedAtMark(tf, df, marked)) && Math.min(tf.length, df.length) >= 4
      ? NAME_SCORES.unsureGiven
      : NAME_SCORES.oneLetterOff;
  return 0;
}

/** Whether `read` is `typed` with one letter read as another, at a position typed with a mark. */
function substitutedAtMark(typed: string, read: string, marked: ReadonlySet<number>): boolean {
  if (typed.length !== read.length || marked.size === 0) return false;
  const differ = [...typed].flatMap((c, i) => (c === read[i] ? [] : [i]));
  return differ.length === 1 && marked.has(differ[0]!);
}

/** Typed given names against the document's: each typed one paired with its best document name. */
function givenScore(typed: Token[], doc: Token[], truncated: boolean, unsure: ReadonlySet<string>): number {
  const t = typed.filter((x) => !x.particle);
  const d = doc.filter((x) => !x.particle);
  if (!t.length) return d.length ? NAME_SCORES.onlySurname : NAME_SCORES.exact;
  if (!d.length) return NAME_SCORES.extraGiven;
  const pairs: { i: number; j: number; s: number }[] = [];
  t.forEach((a, i) => d.forEach((b, j) => pairs.push({ i, j, s: givenTokenScore(a, b, truncated, unsure.has(b.forms[0]!)) })));
  pairs.sort((x, y) => y.s - x.s);
  const usedT = new Set<number>();
  const usedD = new Set<number>();
  let worst = 1;
  for (const p of pairs) {
    if (p.s === 0 || usedT.has(p.i) || usedD.has(p.j)) continue;
    usedT.add(p.i);
    usedD.add(p.j);
    worst = Math.min(worst, p.s);
  }
  if (usedT.size === 0) return NAME_SCORES.otherPerson;
  // A zone cut at its end has no room for the last given names typed: every one it shows was typed.
  if (usedT.size < t.length && !(truncated && usedD.size === d.length)) return Math.min(worst, NAME_SCORES.extraGiven);
  return usedD.size < d.length ? Math.min(worst, NAME_SCORES.givenOmitted) : worst;
}

/** The name on a document, its parts apart. */
export interface DocumentName {
  surname: string;
  givenNames: string;
  /** The MRZ filled its name field to the end (the name may be cut). */
  truncated?: boolean;
  /**
   * Printed words the recogniser was unsure of (normalised, `normalizeName`): a given name among
   * them one letter off a typed one is taken as a misreading of it (0.9). Never the surname.
   */
  unsureWords?: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** `name_match` of a typed name against a document's surname and given names (see the top of this file). */
export function nameMatchScore(typed: string, doc: DocumentName): number {
  const t = tokenize(typed);
  const surname = tokenize(doc.surname);
  const given = tokenize(doc.givenNames);
  if (!t.length || !surname.length) return 0;
  const truncated = doc.truncated ?? false;
  let best = 0;
  // The surname run is at the start (SURNAME Given) or at the end (Given Surname) of what was typed.
  for (let k = 1; k <= t.length; k++) {
    for (const [run, rest] of [
      [t.slice(t.length - k), t.slice(0, t.length - k)],
      [t.slice(0, k), t.slice(k)],
    ] as const) {
      if (run.every((x) => x.particle)) continue;
      const s = surnameScore(
        run,
        surname,
        truncated,
        rest.some((x) => !x.particle),
      );
      const score = s <= NAME_SCORES.otherPerson ? s : Math.min(s, givenScore(rest, given, truncated, doc.unsureWords ?? NONE));
      best = Math.max(best, score);
    }
  }
  return best;
}

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (!a.length || !b.length) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatch = new Array<boolean>(a.length).fill(false);
  const bMatch = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j++) {
      if (bMatch[j] || a[i] !== b[j]) continue;
      aMatch[i] = bMatch[j] = true;
      matches++;
      break;
    }
  }
  if (!matches) return 0;
  let t = 0;
  for (let i = 0, k = 0; i < a.length; i++) {
    if (!aMatch[i]) continue;
    while (!bMatch[k]) k++;
    if (a[i] !== b[k]) t++;
    k++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - t / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < Math.min(4, a.length, b.length) && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/**
 * A typed word against a word of free text: as `tokenSimilarity`, but a text word under three
 * quarters of the typed word's length stands for nothing. In a text, short words are mostly
 * fragments and junk read from a pattern or the desk (`TR`, `BRI`), and a prefix or Jaro-Winkler's
 * prefix bonus would otherwise let them stand for a typed surname (TRAN, BRINK).
 */
export function textWordSimilarity(typed: string, word: string): number {
  return word.length < Math.ceil(0.75 * typed.length) ? 0 : tokenSimilarity(typed, word);
}

export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return 0.95; // MRZ truncation
  return jaroWinkler(a, b);
}

/**
 * Without a name whose parts are known (no MRZ, no labelled fields) the name has no fixed place in
 * the OCR text, so each typed token is scored against its best match among the text's tokens,
 * plain and ICAO-transliterated; the mean is the score. A token counts only from TEXT_TOKEN_MIN
 * similarity up, and when any typed token is not in the text the score is at most 0.7 (review):
 * a surname that is not on the document never passes on the strength of the given names.
 * A token that is in the text only as a near word (not equal, not a prefix) is a misreading only
 * where the recogniser was unsure of that word (`unsure`, normalised words under 80% confidence);
 * read with confidence it is another name (Marie for MARIA, Mario): at most 0.7, review, as one
 * letter off is where the name's parts are known.
 */
export const TEXT_TOKEN_MIN = 0.85;
export function nameInTextScore(typed: string, text: string, unsure: ReadonlySet<string> = NONE): number {
  const all = normalizeName(text).split(' ');
  // A surname's prefix letter (O'CONNOR, D'ANGELO) is one word with it, as the MRZ writes it: the
  // text's letter and the word after it are joined too (its apostrophe splits them when normalised).
  const prefixed = all.flatMap((w, i) => (isNamePrefix(w, all[i + 1]) ? [w + all[i + 1]] : []));
  const words = [...all.filter((t) => t.length >= 2), ...prefixed];
  const doc = [...new Set([...words, ...words.map(foldTransliteration)])];
  if (!doc.length) return 0;
  const unsureForms = new Set([...unsure, ...[...unsure].map(foldTransliteration)]);
  let best = 0;
  const joined = withPrefixLettersJoined(typed);
  for (const form of new Set([normalizeName(joined), icaoTransliteration(joined)])) {
    const tokens = form.split(' ').filter((t) => t && !PARTICLES.has(t));
    if (!tokens.length) continue;
    let missing = false;
    let nearOnly = false;
    const mean =
      tokens.reduce((sum, t, i) => {
        // A middle initial (Małgorzata D. Lindqvist) stands for a word of the text with its
        // letter, as an initial does against the document's given names; never the first or the
        // last word typed, where the surname is.
        const middle = i > 0 && i < tokens.length - 1;
        if (t.length === 1) {
          const initialSim = middle && doc.some((d) => d.startsWith(t)) ? NAME_SCORES.abbreviated : 0;
          if (initialSim < TEXT_TOKEN_MIN) missing = true;
          return sum + initialSim;
        }
        // A short word (4 letters or fewer) must be in the text as typed (or transliterated): one
        // letter off, it is as often a junk word read from a pattern (TRAE for a typed TRAN).
        if (t.length <= 4) {
          const sim = doc.includes(t) || doc.includes(foldTransliteration(t)) ? 1 : 0;
          if (!sim) missing = true;
          return sum + sim;
        }
        const folded = foldTransliteration(t);
        // Equal, or one a prefix (3+ letters) of the other (an MRZ cut): the word itself; else a near word.
        const itself = (d: string) =>
          [t, folded].some((x) => x === d || (Math.min(x.length, d.length) >= 3 && (d.startsWith(x) || x.startsWith(d))));
        let sim = 0;
        let near = false;
        for (const d of doc) {
          const s = Math.max(textWordSimilarity(t, d), textWordSimilarity(folded, d));
          if (s < sim || (s === sim && !near)) continue;
          sim = s;
          near = !itself(d) && !unsureForms.has(d);
        }
        if (sim < TEXT_TOKEN_MIN) missing = true;
        else if (near) nearOnly = true;
        return sum + (sim >= TEXT_TOKEN_MIN ? sim : 0);
      }, 0) / tokens.length;
    best = Math.max(best, missing || nearOnly ? Math.min(mean, NAME_SCORES.extraGiven) : mean);
  }
  return Math.round(best * 1000) / 1000;
}

/**
 * A name score from readings of a side where no name was read by its labels (nor a zone): where a
 * word of the typed name is printed whole in one of them (`typedWordInText`), never under the
 * reject line (`rejectLine`, POLICY's): the text cannot tell the surname from the given names, so
 * the rest is unread, not mismatched, and a person looks. A passport at 640 x 480 showed KOVACS,
 * its given name read 2s0tia, and was rejected.
 */
export function nameFloorInText(typed: string, score: number, readings: readonly { text: string }[], rejectLine: number): number {
  return readings.some((r) => typedWordInText(typed, r.text)) ? Math.max(score, rejectLine) : score;
}

/** A text's words (normalised), each by itself and folded (`foldTransliteration`), to the word as printed. */
function printedWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const w of normalizeName(text).split(' ')) for (const form of [foldTransliteration(w), w]) words.set(form, w);
  return words;
}

/**
 * Whether a word of the typed name, five letters or more, is a word of the text as typed (or
 * transliterated, either way): part of the name is printed there, whatever the rest reads. Short
 * words are left out, as junk words read from a pattern match them by chance.
 */
export function typedWordInText(typed: string, text: string): boolean {
  const doc = printedWords(text);
  return [normalizeName(typed), icaoTransliteration(typed)].some((form) =>
    form.split(' ').some((t) => t.length >= 5 && !PARTICLES.has(t) && (doc.has(t) || doc.has(foldTransliteration(t)))),
  );
}

/**
 * A one-letter word that belongs to the name after it: Irish Ó (Ó BRIAIN) and the elided D' and L'
 * (D'ANGELO reads D ANGELO once the apostrophe is a space), before a word of three letters or more.
 */
export const isNamePrefix = (w: string, next: string | undefined) => /^[ODL]$/.test(w) && (next?.length ?? 0) >= 3;

/**
 * The typed name with a surname's prefix letter joined to the rest of it where an apostrophe
 * joins them (O'Connor -> OConnor): a single letter otherwise stands for an initial (Ana D. Silva).
 */
function withPrefixLettersJoined(typed: string): string {
  return typed.replace(/(^|[^\p{L}])([ODL])['’‘`´]\s*(?=\p{L}{3})/giu, '$1$2');
}

/**
 * Letters the printed-text recogniser misreads, and what it reads instead: Ł (typed L, no class
 * for it) is read T, or E (EUCJA); Þ (typed TH) is read P or B (BORA); Ü (typed U) II, or I;
 * Ø (typed O) @, G (SGNDERGAARD) or E (SEREN); Ç (typed C) G; Ã (typed A) D (JODO); Ñ (typed N)
 * FI (NUFIEZ) or IL (NUILEZ); ß (typed SS) LL, L or B. No check digit stands behind printed
 * text, so a read word that equals a typed word except where such a letter was read as its
 * stand-in is taken as the typed word. Nothing else changes: another surname differs elsewhere.
 * A stand-in that is itself a letter of names (G, E, L, B, D) counts only when the typed name holds
 * the letter it stands for (`only`), so GALLO is never read as a typed CALLO (nor WEILL as a
 * typed WEISS, unless it was typed Weiß).
 */
const MISREAD_AS: readonly { typed: string; read: string; only?: RegExp }[] = [
  { typed: 'L', read: 'T' },
  { typed: 'L', read: 'E', only: /ł/i },
  { typed: 'TH', read: 'P' },
  // Þ is typed TH as often as Þ: the stand-in B counts for either (a typed Thora is no Bora).
  { typed: 'TH', read: 'B' },
  { typed: 'U', read: 'II' },
  // Ü typed as ICAO writes it (UE), and Ø likewise (OE): Bülow typed Buelow, read BIILOW.
  { typed: 'UE', read: 'II' },
  { typed: 'OE', read: '@' },
  { typed: 'U', read: 'I', only: /ü/i },
  { typed: 'O', read: '@' },
  { typed: 'O', read: 'G', only: /ø/i },
  { typed: 'O', read: 'E', only: /ø/i },
  { typed: 'N', read: 'FI' },
  // In a serif face the tilde's stroke joins the N's first stem: NÚÑEZ read NUILEZ.
  { typed: 'N', read: 'IL' },
  // J's hook lost in small print: read as I (WOJCIK read WOICIK), or with the I
  // of Dutch IJ as one stroke (VAN DIJK read VAN DIK; both in review).
  { typed: 'J', read: 'I' },
  { typed: 'IJ', read: 'I' },
  // Dutch IJ set narrow in a sans face, its two strokes read as one U (VAN DIJK read VAN DUK).
  { typed: 'IJ', read: 'U' },
  { typed: 'C', read: 'G', only: /ç/i },
  // Ð (typed D once normalised) read as P, its bar taken for a bowl, with confidence: a printed
  // GUÐMUNDSDÓTTIR read GUPMUNDSDOTTIR.
  { typed: 'D', read: 'P', only: /ð/i },
  // Ã (typed A) is read as d, its tilde taken for the stem: a printed João read Jodo, twice on
  // cards drawn differently.
  { typed: 'A', read: 'D', only: /ã/i },
  // Typed without its tilde (Joao, as most keyboards write it), the Portuguese -ÃO read -DO all
  // the same: a printed João read Jodo. No name
  // ends in -DO where another ends in -AO on the same stem.
  { typed: 'AO', read: 'DO' },
  // ß (typed SS once normalised) is read as LL, L or B: Weiß printed, WEILL or WEIB read.
  { typed: 'SS', read: 'LL', only: /ß/ },
  { typed: 'SS', read: 'L', only: /ß/ },
  { typed: 'SS', read: 'B', only: /ß/ },
];

/** Whether `read` is `typed` (both normalised) with one or more letters read as their stand-ins. */
function misreadOf(typed: string, read: string, rules: typeof MISREAD_AS, i = 0, j = 0, misread = false): boolean {
  if (i === typed.length && j === read.length) return misread;
  if (i >= typed.length || j >= read.length) return false;
  if (typed[i] === read[j] && misreadOf(typed, read, rules, i + 1, j + 1, misread)) return true;
  return rules.some(
    (m) =>
      read.startsWith(m.read, j) &&
      typed.startsWith(m.typed, i) &&
      misreadOf(typed, read, rules, i + m.typed.length, j + m.read.length, true),
  );
}

/**
 * A word as its upright strokes look in the sans-serif faces names are printed in: a capital I, a
 * small l and a small i whose dot was lost are one stroke (`|`), other letters in capitals without
 * accents. The recogniser reads a printed Ilse as lise; a printed Lise (a capital L) stays apart.
 */
function strokeForm(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[Ili]/g, '|').toUpperCase();
}

/** A typed word's letters (normalised), each with whether it was typed with a mark: any letter outside A-Z (Ð, Ó, İ, ß). */
function markedLetters(word: string): { letters: string; marked: boolean }[] {
  return [...word.normalize('NFC')].flatMap((c) => {
    const letters = normalizeName(c).replace(/ /g, '');
    return letters ? [{ letters, marked: !/[A-Za-z]/.test(c) }] : [];
  });
}

/** Marked letters a misreading may take, and the unmarked letters it must leave as typed. */
const MARKS_MISREAD = { most: 2, lettersKept: 4 } as const;

/**
 * Whether `read` (normalised) is the typed word read right but at one or two of its marked letters,
 * each read as one or two other letters or lost (GUÐMUNDSDÓTTIR read GUPMUNDSDOTTIR, GUBDMUNDSDOTTIR,
 * GUDEMUNDSDETTIR; CÓRDOBA read CDRDOBA), with at least four unmarked letters as typed. A marked
 * letter may take the letter beside it with it, the two read as two others (BJØRNSTAD read
 * BUORNSTAD: the stroke of the Ø runs into the J), where the word has
 * unmarked letters enough for four to stay as typed whatever the misreadings took.
 */
function misreadAtMarks(typedWord: string, read: string): boolean {
  const units = markedLetters(typedWord);
  const unmarked = units.filter((u) => !u.marked).length;
  if (!units.some((u) => u.marked) || unmarked < MARKS_MISREAD.lettersKept) return false;
  const withNeighbour = unmarked >= MARKS_MISREAD.lettersKept + MARKS_MISREAD.most;
  // A marked letter and the unmarked one beside it, units[i] and units[i + 1], read as two letters.
  const pairAt = (i: number) => {
    const [a, b] = [units[i], units[i + 1]];
    return withNeighbour && a !== undefined && b !== undefined && a.marked !== b.marked && a.letters.length + b.letters.length === 2;
  };
  const memo = new Map<number, number>();
  // The fewest marked letters misread for units[i..] to read as read[j..] (Infinity: it cannot).
  const cost = (i: number, j: number): number => {
    if (i === units.length) return j === read.length ? 0 : Infinity;
    const key = i * (read.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const u = units[i]!;
    let best = read.startsWith(u.letters, j) ? cost(i + 1, j + u.letters.length) : Infinity;
    if (u.marked) for (let k = 0; k <= 2 && j + k <= read.length; k++) best = Math.min(best, 1 + cost(i + 1, j + k));
    if (pairAt(i) && j + 2 <= read.length) best = Math.min(best, 1 + cost(i + 2, j + 2));
    memo.set(key, best);
    return best;
  };
  const misread = cost(0, 0);
  return misread >= 1 && misread <= MARKS_MISREAD.most;
}

/**
 * A document's name (surname or given names, as read) compared word by word with the typed name,
 * for the score only: a read word that is a typed word misread in a way the recogniser is known to
 * misread it is taken as that typed word. Four ways: at letters the recogniser cannot read
 * (`MISREAD_AS`); at one or two letters the user typed with a mark, where the recogniser was unsure
 * of the word (`unsure`, as read: it reads a clean name with confidence, but a marked letter it has
 * no class for as anything, and unsurely); by which upright stroke is which (`strokeForm`); and two
 * or more consecutive typed words run together (a space the recogniser dropped: EVAJOSE). An Irish
 * Ó read as a digit before the typed surname is an O again. None can turn another name into the
 * typed one. The evidence itself is never rewritten: the fused name is reported as read.
 */
export function readAsTyped(typed: string, read: string, unsure: readonly string[] = []): string {
  const typedWords = normalizeName(typed).split(' ').filter(Boolean);
  const spellings = [...new Set([...typedWords, ...icaoTransliteration(typed).split(' ')])].filter((w) => w.length >= 3);
  const joined = new Map<string, string>();
  for (let i = 0; i < typedWords.length; i++) {
    for (let j = i + 2; j <= typedWords.length; j++) joined.set(typedWords.slice(i, j).join(''), typedWords.slice(i, j).join(' '));
  }
  const byStrokes = new Map<string, string>();
  for (const t of spellings.filter((w) => w.length >= 4)) {
    for (const form of [t, t[0] + t.slice(1).toLowerCase()].map(strokeForm)) if (form.includes('|')) byStrokes.set(form, t);
  }
  const rules = MISREAD_AS.filter((m) => !m.only || m.only.test(typed));
  const marked = typed.split(/[^\p{L}\p{M}]+/u).filter((w) => /[^A-Za-z]/.test(w));
  const unsureWords = new Set(unsure.flatMap((w) => normalizeName(w).split(' ')));
  const atMarks = (word: string) => (unsureWords.has(word) ? marked.find((t) => misreadAtMarks(t, word)) : undefined);
  // An Irish Ó, a word of one letter, read as a digit (its accent joined to it: 6, or 0) right
  // before the typed word that follows it (6 BRIAIN for Ó BRIAIN).
  let text = read;
  typedWords.forEach((w, i) => {
    const next = typedWords[i + 1];
    if (w === 'O' && next && /^[A-Z]+$/.test(next))
      text = text.replace(new RegExp(`(?<![\\p{L}\\d])[60](?= +${next}(?!\\p{L}))`, 'giu'), 'O');
  });
  // Word by word in place: lines, digits and labels stay as read for the field parsers. A word
  // may hold an @ (a misread Ø).
  return text.replace(/[\p{L}@]+/gu, (raw) => {
    const word = raw.split('@').map(normalizeName).join('@');
    const strokes = byStrokes.get(strokeForm(raw));
    const misreadMarks = atMarks(word);
    return (
      joined.get(word) ??
      // A typed word read right is never another typed word misread (LUCIA beside a typed LUCJA).
      (spellings.includes(word) ? undefined : spellings.find((t) => misreadOf(t, word, rules))) ??
      (misreadMarks ? normalizeName(misreadMarks) : strokes && strokes !== word ? strokes : raw)
    );
  });
}
