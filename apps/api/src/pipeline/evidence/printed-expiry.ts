import type { DateRead, TextFieldsReading } from '../read/printed/text-fields.js';

/**
 * Printed expiry dates have no check digit: what several readings of one side say of it together.
 * A past expiry rejects a user, so one reading's past date never stands against another reading
 * that saw the document still valid.
 */

/** A reading's expiry, for `expiryReadingsDisagree`, where it read a date beyond any document's validity (a misread future). */
const BEYOND_VALIDITY = '9999-12-31';

/**
 * Whether a side's printed readings (`readTextFields` of each) leave its expiry in doubt on
 * `today` (ISO date): they disagree on whether it has expired, or one read a date decades ahead
 * (2082 for 2032: no expiry, but a reading that saw the document still valid) where another read
 * a past expiry (the lost expiry's issue date taken for it: a genuine licence was rejected as expired).
 * A date ahead that is another date of the side misread (`misreadsAnotherDate`) is no such sign.
 */
export function printedExpiryInDoubt(readings: readonly TextFieldsReading[], today: string): boolean {
  const othersThan = (r: TextFieldsReading) => readings.filter((o) => o !== r);
  const expiries = readings.map((r) => {
    const expiry = r.fields.expiryDate;
    if (expiry === null || expiry < today) return expiry;
    const read = r.dates.find((d) => d.iso === expiry) ?? { iso: expiry, label: null };
    return misreadsAnotherDate(read, othersThan(r)) ? null : expiry;
  });
  const ahead = readings.filter((r) => r.beyond.some((d) => !misreadsAnotherDate(d, othersThan(r)))).map(() => BEYOND_VALIDITY);
  return expiryReadingsDisagree([...expiries, ...ahead], today);
}

/**
 * Whether a date one reading of a side read ahead (its future expiry, or a date decades ahead)
 * is, but for one digit of its year, a date another reading read and took for no expiry (neither
 * labelled one, nor its expiry, nor on its expiry's day and month): that date misread, an issue
 * or birth date, never a sign the document is still valid. An expired card's issue date
 * 21.05.2015 read 21.05.2045 in one reading (taken for its expiry, the expiry lost), its past
 * expiry 17.10.2025 read in the other, went to review as unreadable. A date
 * labelled an expiry stays a sign, and so does one repeating a date labelled one (4b. 12 09 2032
 * read 2082 and 2012) or on the other's expiry's day (issued 21.05.2025,
 * expiring 21.05.2035, the expiry read 2015 in the other: that may be the expiry misread).
 */
export function misreadsAnotherDate(ahead: DateRead, others: readonly TextFieldsReading[]): boolean {
  if (ahead.label === 'expiry') return false;
  const dayOf = (iso: string) => iso.slice(4);
  const oneDigitApart = (a: string, b: string) => [...a].filter((c, i) => c !== b[i]).length === 1;
  return others.some(
    (o) =>
      (o.fields.expiryDate === null || dayOf(o.fields.expiryDate) !== dayOf(ahead.iso)) &&
      o.dates.some(
        (d) => d.label !== 'expiry' && dayOf(d.iso) === dayOf(ahead.iso) && oneDigitApart(d.iso.slice(0, 4), ahead.iso.slice(0, 4)),
      ),
  );
}

/**
 * A past expiry that two or more of a side's printed readings read under its label, where none
 * could read an issue date before it (`labelledExpiryAlone`), and no reading read any later date
 * nor a date ahead but an issue or birth date misread: the expiry, or null. One reading alone may
 * have misread a valid expiry's year under its label, its issue date lost (a genuine user
 * rejected); the same past date in several is the document's. An expired licence, its expiry
 * 23.09.2021 read under `4b.` in all four readings and its issue date misread in every one
 * (16.02 7016), went to review as unreadable.
 */
export function expiryAgreedWithoutIssue(readings: readonly TextFieldsReading[]): string | null {
  const agreed = readings.map((r) => r.labelledExpiryAlone).filter((d): d is string => d !== null);
  const expiry = agreed[0];
  if (expiry === undefined || agreed.length < 2 || agreed.some((d) => d !== expiry)) return null;
  const seesLater = (r: TextFieldsReading) =>
    r.fields.expiryDate !== null || r.dates.some((d) => d.iso > expiry) || r.beyond.some((d) => d.label !== 'issue' && d.label !== 'birth');
  return readings.some(seesLater) ? null : expiry;
}

/** Whether readings of one side's printed expiry (null: none read) disagree on whether it is past `today` (ISO date). */
export function expiryReadingsDisagree(expiries: readonly (string | null)[], today: string): boolean {
  const read = expiries.filter((d): d is string => d !== null);
  return read.some((d) => d < today) && read.some((d) => d >= today);
}

