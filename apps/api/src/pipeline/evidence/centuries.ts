import type { Candidate } from './candidates.js';

/**
 * Dates read with a two-digit year (a zone's YYMMDD) take their century from the document's own
 * dates: a birth before the document's issue date and before its expiry, an expiry after its issue
 * date. The zone reader's default (a birth in the past, an expiry within the century's first 70
 * years) stands where the document shows no other date; the issue date is a printed one's.
 */
export function withCenturiesFromDocument(candidates: readonly Candidate[], today: string): Candidate[] {
  const issue = surest(candidates.filter((c) => c.field === 'issueDate'));
  const expiry = surest(candidates.filter((c) => c.field === 'expiryDate' && c.checked === true));
  return candidates.map((c) => {
    if (!c.twoDigitYear) return c;
    if (c.field === 'dateOfBirth') {
      const before = [issue, expiry].filter((d): d is string => d !== null);
      // Born before every date the document was issued or expires on, and not in the future.
      if (c.value.startsWith('20') && (c.value > today || before.some((d) => c.value >= d))) return { ...c, value: shiftYears(c.value, -100) };
    }
    if (c.field === 'expiryDate' && c.value.startsWith('19') && issue !== null && c.value <= issue) return { ...c, value: shiftYears(c.value, 100) };
    return c;
  });
}

const surest = (cs: readonly Candidate[]): string | null => [...cs].sort((a, b) => b.confidence - a.confidence)[0]?.value ?? null;

const shiftYears = (iso: string, years: number) => `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`;
