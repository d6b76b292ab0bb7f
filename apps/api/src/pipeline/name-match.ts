/**
 * `name_match`: how well the name the user typed matches the name read from the document, in
 * [0, 1]. Robust to case, accents and other diacritics, MRZ transliteration (Ä as AE or A, ß as
 * SS, Ñ as N…), the order of given names and surname, a missing middle name, and the MRZ's
 * truncation of long names.
 *
 * Score: each typed token is paired with its most similar document token (Jaro-Winkler, each
 * token used once, best pairs first; a token that is a prefix of at least 3 letters of the other,
 * as truncation leaves it, counts 0.95). The score is the mean similarity of the pairs, times a
 * coverage factor for document tokens left unpaired: 1 - 0.1 per unpaired token (a middle name the
 * user left out costs 0.1), never below 0.6 of the mean. Typed tokens with no pair count 0.
 */

const SPECIAL: Record<string, string> = { ß: 'SS', Æ: 'AE', æ: 'AE', Ø: 'O', ø: 'O', Œ: 'OE', œ: 'OE', Ł: 'L', ł: 'L', Đ: 'D', đ: 'D', Þ: 'TH', þ: 'TH', ı: 'I', Ð: 'D', ð: 'D' };

/** Uppercase ASCII letters and single spaces; diacritics removed (É -> E, Ñ -> N). */
export function normalizeName(name: string): string {
  return name
    .replace(/[ßÆæØøŒœŁłĐđÞþıÐð]/g, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** German-style transliteration used in many MRZs: Ä -> AE, Ö -> OE, Ü -> UE, Å -> AA. */
export function icaoTransliteration(name: string): string {
  return normalizeName(name.replace(/[ÄäÖöÜüÅå]/g, (c) => ({ Ä: 'AE', ä: 'AE', Ö: 'OE', ö: 'OE', Ü: 'UE', ü: 'UE', Å: 'AA', å: 'AA' })[c]!));
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

export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return 0.95; // MRZ truncation
  return jaroWinkler(a, b);
}

function scoreTokens(typed: string[], doc: string[]): number {
  if (!typed.length || !doc.length) return 0;
  const pairs: { i: number; j: number; s: number }[] = [];
  typed.forEach((a, i) => doc.forEach((b, j) => pairs.push({ i, j, s: tokenSimilarity(a, b) })));
  pairs.sort((x, y) => y.s - x.s);
  const usedT = new Set<number>();
  const usedD = new Set<number>();
  let total = 0;
  for (const p of pairs) {
    if (usedT.has(p.i) || usedD.has(p.j)) continue;
    usedT.add(p.i);
    usedD.add(p.j);
    total += p.s;
  }
  const mean = total / typed.length;
  const unpairedDoc = doc.length - usedD.size;
  return mean * Math.max(0.6, 1 - 0.1 * unpairedDoc);
}

/** The best score over the plain and the ICAO-transliterated forms of the typed name. */
export function nameMatchScore(typed: string, extracted: string): number {
  const doc = normalizeName(extracted).split(' ').filter(Boolean);
  let best = 0;
  for (const form of new Set([normalizeName(typed), icaoTransliteration(typed)])) {
    best = Math.max(best, scoreTokens(form.split(' ').filter(Boolean), doc));
  }
  return Math.round(best * 1000) / 1000;
}

/**
 * Without an MRZ the name has no fixed place in the OCR text (labels and values interleave by
 * layout), so each typed token is scored against its best match among all the text's tokens,
 * plain and ICAO-transliterated; the mean is the score. Matching any word of a page is lenient,
 * so a token counts only from TEXT_TOKEN_MIN similarity up (else 0).
 */
export const TEXT_TOKEN_MIN = 0.85;
export function nameInTextScore(typed: string, text: string): number {
  const doc = [...new Set(normalizeName(text).split(' ').filter((t) => t.length >= 2))];
  if (!doc.length) return 0;
  let best = 0;
  for (const form of new Set([normalizeName(typed), icaoTransliteration(typed)])) {
    const tokens = form.split(' ').filter(Boolean);
    if (!tokens.length) continue;
    const mean =
      tokens.reduce((sum, t) => {
        const sim = Math.max(...doc.map((d) => tokenSimilarity(t, d)));
        return sum + (sim >= TEXT_TOKEN_MIN ? sim : 0);
      }, 0) / tokens.length;
    best = Math.max(best, mean);
  }
  return Math.round(best * 1000) / 1000;
}
