import { checksHeld, readZoneFields, type ZoneReading } from './zone-fields.js';

/**
 * Cleans one OCR line toward the MRZ alphabet: uppercase, `<` for look-alikes, no spaces. Short
 * fragments before or after a long run (the document's edge, a fold, the desk read as letters
 * beside the zone) are dropped when the rest is long enough to be a zone line.
 */
export function cleanMrzLine(line: string): string {
  const clean = (s: string) =>
    s
      .toUpperCase()
      .replace(/[«‹]/g, '<')
      .replace(/[^A-Z0-9<]/g, '');
  const tokens = line.trim().split(/\s+/).map(clean).filter(Boolean);
  const FRAGMENT = 3;
  // A document code with its filler ("P<") is the zone's own start, not a mark beside it.
  while (tokens.length > 1 && !/^[PIACV]<$/.test(tokens[0]!) && tokens[0]!.length <= FRAGMENT && tokens.slice(1).join('').length >= 28)
    tokens.shift();
  while (tokens.length > 1 && tokens[tokens.length - 1]!.length <= FRAGMENT && tokens.slice(0, -1).join('').length >= 28) tokens.pop();
  return tokens.join('');
}

/** Lines fitted to a zone's width, and whether their start was read as a zone's (no code given back). */
export interface ZoneFitting {
  lines: string[];
  /** False where the first line's document code was misread and given back (`tidyEnds`): the name after it is unsure. */
  startSure: boolean;
}

/**
 * Every fitting of a text's zone-like lines worth reading, most likely first (the lowest lines
 * first). OCR miscounts long runs of `<` fillers: a line one or two characters off its length is
 * fitted both at its end (dropped trailing fillers padded back, a stray mark after the last digit
 * cut off) and in its longest run of fillers (one filler too many or too few in the middle), and
 * an overlong one also at its start (the document's edge read as a letter); the check digits decide.
 */
export function zoneFittings(text: string): ZoneFitting[] {
  // 26 characters at least: a TD1 card's first line that lost its state is 27 (`tidyEnds`).
  const candidates = zoneLikeLines(text, 26);
  const found: ZoneFitting[] = [];
  // The lowest lines first; then higher windows, since a band read with the desk or the document's
  // edge below the zone can end in a long junk line of fillers and look-alikes.
  for (let end = candidates.length; end >= 2; end--) {
    for (const count of [3, 2]) {
      if (end < count) continue;
      const { lines, codeRebuilt } = tidyEnds(candidates.slice(end - count, end));
      // The width nearest the lines' own first: a visa's 36 padded to 44 reads too, as a passport's.
      const width = lines.reduce((n, l) => n + l.length, 0) / lines.length;
      for (const len of count === 2 ? [44, 36].sort((a, b) => Math.abs(a - width) - Math.abs(b - width)) : [30]) {
        const perLine = lines.map((l) => fittings(l, len));
        if (perLine.some((f) => f.length === 0)) continue;
        for (const combo of combinations(perLine))
          found.push({ lines: combo, startSure: !codeRebuilt && FIRST_LINE_START.test(combo[0]!) });
      }
    }
  }
  const seen = new Set<string>();
  return found.filter((c) => !seen.has(c.lines.join('\n')) && seen.add(c.lines.join('\n')));
}

/**
 * The zone a text shows, read field by field (zone-fields.ts): of every fitting of its lines, the
 * one whose checks hold best, then with the fewest look-alikes swapped, then the lowest. Null when
 * no fitting holds enough checks to be a zone.
 */
export function zoneInText(text: string, now = new Date()): ZoneReading | null {
  let best: ZoneReading | null = null;
  for (const f of zoneFittings(text)) {
    const z = readZoneFields(f.lines, { nameSure: f.startSure, now });
    if (z && (!best || checksHeld(z) > checksHeld(best) || (checksHeld(z) === checksHeld(best) && z.repairs < best.repairs))) best = z;
  }
  return best;
}

/**
 * Whether an OCR text shows a line of a machine-readable zone, read well or not: 20 characters or
 * more of the zone's alphabet with fillers among them. Print of any other kind (a card's fields, a
 * licence's categories) seldom has two `<` in a line; a zone misread still keeps most of its fillers.
 */
export function showsZoneLine(text: string): boolean {
  return zoneLikeLines(text, 20).length > 0;
}

/**
 * Whether an OCR text shows a zone line with a run of four fillers: every zone has one (the name
 * line's end, a TD1 card's optional data), and a zone misread keeps it. The OCR-B model reads a
 * card's printed front or a licence as lines of its alphabet with fillers scattered among them
 * (`showsZoneLine` held on 44 of 99 sides without a zone of one synthetic set), but with such a run
 * on 19 of them; every zone found there after its first readings had shown one before. Not a
 * zone read in pieces under strong perspective, whose fillers are cut (`<C<5<5<`).
 */
export function showsZoneFillers(text: string): boolean {
  return zoneLikeLines(text, 20).some((line) => line.includes('<<<<'));
}

/**
 * Readings of two regions of a side, the upper's above the lower's, as one text, top to bottom: the
 * lower's lines that repeat a zone line of the upper (where the regions overlap, a line read twice,
 * perhaps a few characters apart) left out. A zone split between the two is then whole.
 */
export function stackedReadings(upper: string, lower: string): string {
  const above = zoneLikeLines(upper, 20);
  const repeats = (line: string) => {
    const clean = cleanMrzLine(line);
    return clean.length >= 20 && above.some((a) => sameZoneLine(a, clean));
  };
  return [upper.trimEnd(), ...lower.split(/\r?\n/).filter((l) => !repeats(l))].join('\n');
}

/** Two readings of one zone line: lengths within 2, and 80% of the longer's characters equal in place. */
function sameZoneLine(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2) return false;
  let same = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] === b[i]) same++;
  return same >= 0.8 * Math.max(a.length, b.length);
}

/** Whether a line of an OCR text holds two `<` fillers or more: a zone's line, read well or badly. */
export function hasZoneFillers(line: string): boolean {
  return (line.match(/</g)?.length ?? 0) >= 2;
}

/** The lines of an OCR text, cleaned (`cleanMrzLine`), that have `minLength` characters or more and two `<` fillers. */
function zoneLikeLines(text: string, minLength: number): string[] {
  const lines = text.split(/\r?\n/).map(cleanMrzLine);
  // A zone's last line may hold no filler at all (a visa's optional data, a TD1 card's numbers run
  // to its end): taken where it follows a line with fillers, near its length or, where that line
  // lost some of its trailing fillers, near a zone's width.
  const nearWidth = (l: string) => ZONE_WIDTHS.some((w) => Math.abs(l.length - w) <= 2);
  return lines.filter((l, i) => {
    if (l.length < minLength) return false;
    if (hasZoneFillers(l)) return true;
    const above = lines[i - 1];
    return (
      above !== undefined &&
      hasZoneFillers(above) &&
      (Math.abs(above.length - l.length) <= 4 || (above.length < l.length && nearWidth(l))) &&
      /^[A-Z0-9<]+$/.test(l)
    );
  });
}

/** The lengths of a zone's lines: TD1 30, the older French card and MRV-B 36, TD3 and MRV-A 44. */
const ZONE_WIDTHS = [30, 36, 44] as const;

/**
 * A zone's first line starts with its document code and the issuing state (`P<NOR`, `IDISL`,
 * `I<ESP`); the code's second character is the issuer's choice, a digit on some (`C1USA`).
 */
const FIRST_LINE_START = /^[PIACV][A-Z0-9<][A-Z<]{3}/;

/**
 * Marks read beside the zone and joined to it (the document's edge as `I`, `1` or `E`), removed
 * where the zone's structure shows them, since no check digit covers the name: before the document
 * code of the first line, and after the trailing fillers of the name line (a name never ends in a
 * lone letter after three fillers).
 */
function tidyEnds(lines: string[]): { lines: string[]; codeRebuilt: boolean } {
  const out = [...lines];
  let codeRebuilt = false;
  // The document code lost or misread at the start of the first line (IDPOL read 4POL), which then
  // has the issuing state within its first three characters: almost always the holder's
  // nationality, on the second line. No check digit covers the code, so a generic one of the
  // zone's kind stands in for it (an identity card's for three lines or short ones, a passport's
  // for 44 characters), and the check digits still decide whether the zone was read.
  const nationality = out.length === 3 ? out[1]!.slice(15, 18) : out[1]!.slice(10, 13);
  const stateAt = [0, 1, 2].find((k) => out[0]!.slice(k, k + 3) === nationality);
  if (!FIRST_LINE_START.test(out[0]!) && /^[A-Z]{3}$/.test(nationality) && stateAt !== undefined) {
    out[0] = (out.length === 2 && out[0]!.length - stateAt >= 40 ? 'P<' : 'I<') + out[0]!.slice(stateAt);
    codeRebuilt = true;
  }
  // A TD1 card's issuing state lost within the first line, its code's filler with it (`IRBC769...`
  // for `I<NLDBC769...`): the document number then
  // follows the code, the line 2 to 4 characters short. The state is put back from the
  // nationality; the number's check digit and the composite, which covers it, still decide.
  if (out.length === 3 && stateAt === undefined && /^[A-Z]{3}$/.test(nationality) && /^[IAC][A-Z<][A-Z0-9]{2}/.test(out[0]!)) {
    const short = 30 - out[0]!.length;
    if (short >= 2 && short <= 4 && !FIRST_LINE_START.test(out[0]!)) out[0] = `${out[0]![0]}<${nationality}${out[0]!.slice(2)}`;
  }
  // A mark before the document code (the document's edge read as a letter): the line starts one or
  // two characters later. Where the mark reads as a code's letter itself (`IP<AUTDANGELO` for
  // `P<AUTDANGELO`, the surname read TDANGELO), the
  // nationality found as the issuing state a character or two on shows where the line starts.
  const first = out[0]!;
  const startsAt = (k: number) => FIRST_LINE_START.test(first.slice(k));
  const stateAfter = (k: number) => /^[A-Z]{3}$/.test(nationality) && first.slice(k + 2, k + 5) === nationality;
  const skip = [1, 2].find((k) => startsAt(k) && (!startsAt(0) || (stateAfter(k) && !stateAfter(0))));
  if (skip) out[0] = first.slice(skip);
  // The issuing state lost between the document code and the name ("P<" then the surname): it is
  // almost always the holder's nationality, on the second line, so the name field starts where it should.
  if (out.length === 2) {
    const state = out[0]!.slice(2, 5);
    if (/^[PIACV][A-Z<]/.test(out[0]!) && /\d/.test(state) && /^[A-Z]{3}$/.test(nationality))
      out[0] = out[0]!.slice(0, 2) + nationality + out[0]!.slice(2);
  }
  const nameAt = out.length === 3 ? 2 : 0;
  out[nameAt] = out[nameAt]!.replace(/(<{3,})[A-Z0-9]{1,2}$/, '$1');
  return { lines: out, codeRebuilt };
}

/** One OCR line fitted to `len` characters, each way that is plausible (none when it is too far off). */
function fittings(l: string, len: number): string[] {
  const out: string[] = [];
  // At the end: OCR often drops trailing `<` fillers, or reads a mark after the line.
  if (Math.abs(l.length - len) <= 2 || (l.length < len && l.length >= len - 12 && l.endsWith('<')))
    out.push(l.slice(0, len).padEnd(len, '<'));
  // At the start, or at both ends: a mark before the first character (the document's edge), and
  // one after the last, read as letters.
  if (l.length > len && l.length - len <= 2) for (let s = 1; s <= l.length - len; s++) out.push(l.slice(s, s + len));
  // Longer still, the card's own print read into the line before the zone (a label beside it):
  // the line's end, where its fillers and last check digit anchor it, and from a zone's start.
  if (l.length > len + 2) {
    out.push(l.slice(-len));
    const start = /[PIACV][A-Z<][A-Z<]{3}/.exec(l.slice(0, l.length - len + 3));
    if (start) out.push(l.slice(start.index, start.index + len).padEnd(len, '<'));
  }
  // In the longest run of fillers.
  const run = /<{2,}/g;
  let best: { at: number; length: number } | null = null;
  for (let m = run.exec(l); m; m = run.exec(l)) if (!best || m[0].length > best.length) best = { at: m.index, length: m[0].length };
  const diff = l.length - len;
  if (best && diff !== 0 && Math.abs(diff) <= 2 && best.length > diff) {
    out.push(diff > 0 ? l.slice(0, best.at) + l.slice(best.at + diff) : l.slice(0, best.at) + '<'.repeat(-diff) + l.slice(best.at));
  }
  // A filler between two names read as `<K` (the page's recogniser reads fillers as K, L or C):
  // a line one character long without that letter (`PAEIVI<KANA` for `PAEIVI<ANA`). No check digit
  // covers a name: the other readings of it decide (fuse.ts).
  const joined = diff === 1 ? FILLER_READ_AS_LETTER.exec(l) : null;
  if (joined) out.push(l.slice(0, joined.index) + l.slice(joined.index + 1));
  return out;
}

const FILLER_READ_AS_LETTER = /(?<=[A-Z]<)[KLC](?=[A-Z])/;

function combinations(perLine: string[][]): string[][] {
  return perLine.reduce<string[][]>((acc, options) => acc.flatMap((prefix) => options.map((o) => [...prefix, o])), [[]]);
}
