import { describe, expect, it } from 'vitest';
import { expiryAgreedWithoutIssue, expiryReadingsDisagree, printedExpiryInDoubt } from '../../src/pipeline/evidence/printed-expiry.js';
import { fieldsFromText, readTextFields } from '../../src/pipeline/read/printed/text-fields.js';
import { zoneSides } from '../../src/pipeline/strategy/read-document.js';

describe('printed dates', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  it("a side's readings that disagree on whether it has expired leave its expiry in doubt", () => {
    // 07/11/2029 read 07/11/2025 when binarised, right in grey: no one is rejected on the misreading.
    const binarised = fieldsFromText('DOB 07/14/2004\nISS 10/04/2014\nEXP 07/11/2025', now, 'US');
    const grey = fieldsFromText('DOB 07/14/2004\nISS 10/04/2014\nEXP 07/11/2029', now, 'US');
    expect([binarised.expiryDate, grey.expiryDate]).toEqual(['2025-07-11', '2029-07-11']);
    expect(expiryReadingsDisagree([binarised.expiryDate, grey.expiryDate], '2026-11-21')).toBe(true);
    // Both past (2018 read 2019), both ahead, or only one read: no doubt.
    expect(expiryReadingsDisagree(['2019-07-11', '2018-07-11'], '2026-11-21')).toBe(false);
    expect(expiryReadingsDisagree(['2029-07-11', '2028-07-11'], '2026-11-21')).toBe(false);
    expect(expiryReadingsDisagree(['2025-07-11', null], '2026-11-21')).toBe(false);
    // Expiring today is not expired.
    expect(expiryReadingsDisagree(['2026-11-21', '2026-11-20'], '2026-11-21')).toBe(true);
  });
  it('a reading that read a date decades ahead leaves a past expiry read elsewhere in doubt', () => {
    // a licence at 640 x 480: 4b. 12 09 2032 read 2082 binarised and 2012 in
    // grey, where the issue date 03 10 2021 (its 4a. read 43.) was taken for the expiry: rejected
    // as expired, a genuine user.
    const inked = '1 DUPONT MOREAU\n2. JEAN-BAPTISIE\nL103 100021 4 Stanosta\nAh. 1209 2082\n5 CRI51260';
    const grey = '1. DUPONT-MOREAU\n2. JEAN-BAPTISTE\n3.08 03 1970 LYON\n43.03 10 2021 4c. Starosta\n4b, 12 09 2012\n5. C38151261';
    expect(fieldsFromText(grey, now).expiryDate).toBe('2021-10-03');
    expect(fieldsFromText(inked, now).expiryDate).toBeNull();
    const inDoubt = (texts: string[]) =>
      printedExpiryInDoubt(
        texts.map((t) => readTextFields(t, now)),
        '2026-11-21',
      );
    expect(inDoubt([grey, inked])).toBe(true);
    // Alone, the grey reading is sure of its (wrong) expiry; an expired card read twice stays expired.
    expect(inDoubt([grey])).toBe(false);
    const expired = '3. 04.03.1991 TURKIYE\n4a. 05.08.2014\n4b. 05.08.2024';
    expect(inDoubt([expired, expired])).toBe(false);
  });
  it("a date read decades ahead that is another reading's issue date misread leaves no doubt", () => {
    //, an expired card: the second reading read its issue date 21.05.2015 as
    // 21.05.2045 and lost the expiry; the first read both. It went to review as unreadable.
    const first = 'Nationality Date of birth !\nSWE 01.07.1998 —\nEk Date of issue Date of expiry\n\n| 21.05.2015 17.10.2025';
    const second = 'Nationality Date of birth\nSWE 01.07.1998\nDate of issue Date of expiry\n21.05.2045 17 TOE';
    const readings = [first, second].map((t) => readTextFields(t, now));
    expect(readings.map((r) => r.fields.expiryDate)).toEqual(['2025-10-17', '2045-05-21']);
    expect(printedExpiryInDoubt(readings, '2026-11-21')).toBe(false);
    expect(printedExpiryInDoubt([readings[1]!, readings[0]!], '2026-11-21')).toBe(false);
    // Decades ahead (2075 beyond any validity), the same misreading leaves no doubt either.
    const beyond = readTextFields(second.replace('2045', '2075'), now);
    expect(beyond.beyond.map((d) => d.iso)).toEqual(['2075-05-21']);
    expect(printedExpiryInDoubt([readings[0]!, beyond], '2026-11-21')).toBe(false);
    // The same date ahead with its year two digits off, or a day off, is no misreading of it: in doubt.
    const farther = readTextFields(second.replace('2045', '2052'), now);
    const anotherDay = readTextFields(second.replace('21.05.2045', '22.05.2045'), now);
    expect(printedExpiryInDoubt([readings[0]!, farther], '2026-11-21')).toBe(true);
    expect(printedExpiryInDoubt([readings[0]!, anotherDay], '2026-11-21')).toBe(true);
    // Labelled an expiry, the date ahead stays a sign the card may be valid.
    const labelled = readTextFields('Date of birth 01.07.1998\nDate of expiry 21.05.2045', now);
    expect(printedExpiryInDoubt([readings[0]!, labelled], '2026-11-21')).toBe(true);
    // Issued 21.05.2025, expiring 21.05.2035; the other reading read the expiry 2015 and took the
    // issue date for a past expiry: on that expiry's day, the date may be the expiry misread.
    const valid = readTextFields('DOB 01.07.1998\nISS 21.05.2025\nEXP 21.05.2035', now);
    const misread = readTextFields('DOB 01.07.1998\n21.05.2015\n21.05.2025', now);
    expect(misread.fields.expiryDate).toBe('2025-05-21');
    expect(printedExpiryInDoubt([valid, misread], '2026-11-21')).toBe(true);
  });
  it('a past expiry is claimed from three dates only when the one before it could be its issue date', () => {
    // Expired: issued 2014, expired 2024 (ten years), whatever order the layout prints them in.
    expect(fieldsFromText('3. 04.03.1991 TURKIYE\n4a. 05.08.2014\n4b. 05.08.2024\n5. 98308425', now).expiryDate).toBe('2024-08-05');
    expect(fieldsFromText('DOB 04.03.1991\nEXP 06.04.2024\nISS 06.04.2019', now).expiryDate).toBe('2024-04-06');
    // 4b. 01.07.2032 read 01072022: the latest date is the issue date, a month after the misread expiry.
    expect(fieldsFromText('3 04.03.1991 TURKIVE\nsa 05.08.2022\n1 01072022 L\n5 98308425', now).expiryDate).toBeNull();
    // 21.03.2029 read 20032000: the issue date would be 24 years after it.
    expect(fieldsFromText('08.09.1958\nRS7585757\n06.04.2024\n20032000', now).expiryDate).toBeNull();
  });
  it('two past dates on the same day of the year, whole years apart, are an issue date and its expiry', () => {
    expect(fieldsFromText('Date of issue 01.07.2013\n01.07.2023.', now).expiryDate).toBe('2023-07-01');
    // Another day: a birth date and a date that may be an expiry misread, unknown as before.
    expect(fieldsFromText('01.02.2013\n01.07.2023', now).expiryDate).toBeNull();
    // The same day but beyond any validity (a birth and a date 30 years on): no expiry.
    expect(fieldsFromText('01.07.1990\n01.07.2020', now).expiryDate).toBeNull();
  });
  it('an issue date less than a year before a past date makes that date no expiry (a valid one misread)', () => {
    // 4b. 04.01.2029 read 04.01.2020, its label lost; issued 09.03.2019, 301 days before.
    const licence = (expiry: string) => `3. 27.01.2002 POLAND\n4a. 09.03.2019 :\n— i ${expiry} :\n5. 50365051566`;
    expect(fieldsFromText(licence('04.01.2020'), now).expiryDate).toBeNull();
    // A year's document expires the day before the issue date's anniversary: that is an expiry.
    expect(fieldsFromText(licence('08.03.2020'), now).expiryDate).toBe('2020-03-08');
  });
  it('a past expiry read under its label with no issue date is claimed only where two readings or more agree on it', async () => {
    // an expired licence, its issue date misread in every reading (16.02 7016).
    const texts = [
      '1. FERREIRA\n5. ANAIS JOAO\n) 3. 25.08.1973 CZECHIA\n4a. 16.0" "016\n4b. 23.09.2021 |\n5. 06637867113',
      '1. FERREIRA\n5. ANAIS JOAO\n5. 25.08.1973 CZECHIA\n4a. 16.02 7016\n4b. 23.09.2021\n5. 06637867113',
    ];
    const readings = texts.map((t) => readTextFields(t, now));
    expect(readings.map((r) => [r.fields.expiryDate, r.labelledExpiryAlone])).toEqual([
      [null, '2021-09-23'],
      [null, '2021-09-23'],
    ]);
    expect(expiryAgreedWithoutIssue(readings)).toBe('2021-09-23');
    // One reading alone may have misread a valid expiry's year: not claimed.
    expect(expiryAgreedWithoutIssue(readings.slice(0, 1))).toBeNull();
    // Readings that disagree on it, or one that read a later date or a date ahead labelled an expiry: not claimed.
    const other = readTextFields(texts[1]!.replace('23.09.2021', '23.09.2024'), now);
    expect(expiryAgreedWithoutIssue([readings[0]!, other])).toBeNull();
    const later = readTextFields(`${texts[1]}\n12.11.2023`, now);
    expect(expiryAgreedWithoutIssue([...readings, later])).toBeNull();
    const ahead = readTextFields(texts[1]!.replace('4b. 23.09.2021', '4b. 23.09.2021\n4b. 23.09.2081'), now);
    expect(ahead.beyond.map((d) => d.label)).toEqual(['expiry', 'issue']);
    expect(expiryAgreedWithoutIssue([readings[0]!, ahead])).toBeNull();
    // An issue date read within a year before it: that reading claims nothing alone, and the past date is no agreed expiry.
    const soon = readTextFields(texts[1]!.replace('4a. 16.02 7016', '4a. 16.02.2021'), now);
    expect(soon.labelledExpiryAlone).toBeNull();
    // The label is needed: unlabelled, two dates decades apart are a birth and an issue date as often.
    expect(readTextFields('25.08.1973\n23.09.2021', now).labelledExpiryAlone).toBeNull();
  });
  it('a date more than 20 years and a half ahead is a misreading, no expiry', () => {
    expect(fieldsFromText('Date of birth 22.07.1995\nDate of expiry 22.07.3095', now)).toMatchObject({
      dateOfBirth: '1995-07-22',
      expiryDate: null,
    });
    expect(fieldsFromText('22.07.1995\n22.07.2045', now).expiryDate).toBe('2045-07-22');
  });
  it('country: dates are read day first, or month first where the country writes them so', () => {
    const text = 'DRIVER LICENSE\nDOB 02/03/1990\nEXP 04/05/2031\nDL X1234567';
    expect(fieldsFromText(text, now, 'ES')).toMatchObject({
      dateOfBirth: '1990-03-02',
      expiryDate: '2031-05-04',
      documentNumber: 'X1234567',
    });
    expect(fieldsFromText(text, now, 'US')).toMatchObject({ dateOfBirth: '1990-02-03', expiryDate: '2031-04-05' });
    expect(fieldsFromText('BORN 31 02 1990', now, null).dateOfBirth).toBeNull();
  });
  it("an EU licence's field 5 is its number, whatever its length; a date's 5. is not", () => {
    const text = "DRIVER'S LICENSE TURKIYE\n1. GUDMUNDSDOTTIR\n2. ZOE AICHA\n3. 08051976 TURKIYE\n4b. 03032030\n! 5. 85139270\n";
    expect(fieldsFromText(text, now).documentNumber).toBe('85139270');
    expect(fieldsFromText('4b. 5. 03 2030\n', now).documentNumber).toBeNull();
  });
  it("a year's last 1 read as a bracket or a bar (203] for 2031) is a 1; a bracket after other digits is not", () => {
    // a licence in a serif face: its expiry read 26 MAR 203].
    const text = '3.08 JUL 1964 LYON\n4a. 27 OCT 2023 4c. Statens vegvesen\n4b. 26 MAR 203]\n5. P68867595';
    expect(fieldsFromText(text, now)).toMatchObject({ dateOfBirth: '1964-07-08', expiryDate: '2031-03-26' });
    expect(fieldsFromText('4b. 26.03.203|', now).expiryDate).toBe('2031-03-26');
    expect(fieldsFromText('4b. 26.03.503]', now).expiryDate).toBeNull();
  });
  it('dates with month names (21 NOV 1994, 14 juil. 2029) and a number of digits alone (EU licences)', () => {
    const text = '3. 21 NOV 1994 DENMARK\n4a. 21 JAN 2019\n4b. 14 JUIL 2029\n5. 32855956010';
    for (const country of [null, 'US']) {
      expect(fieldsFromText(text, now, country)).toMatchObject({
        dateOfBirth: '1994-11-21',
        expiryDate: '2029-07-14',
        documentNumber: '32855956010',
      });
    }
  });
  it('a date whose two slashes were read as strokes (12/22/2030 read 1212212030) is read as a date; ten digits that make none stay as read', () => {
    //, a licence turned 14 degrees: no expiry read, a genuine user in review.
    const licence = "DRIVER'S LICENSE\nDOB\n05/13/1973\nExp\ni oo eenmsn 1212212030\nISS\n11/25/2020";
    expect(fieldsFromText(licence, now, 'US')).toMatchObject({ dateOfBirth: '1973-05-13', expiryDate: '2030-12-22' });
    expect(fieldsFromText('EXP 22I12I2030', now).expiryDate).toBe('2030-12-22');
    expect(fieldsFromText('EXP 22|12|2030', now).expiryDate).toBe('2030-12-22');
    // Two strokes that differ, a year of no century a document holds, or groups that make no date: no date.
    for (const digits of ['221L122030', '2211122130', '4512912031', '4931786729'])
      expect(fieldsFromText(`EXP ${digits}`, now).expiryDate).toBeNull();
  });
  it('a date that is none in the expected order is read the other way (13/10 day first, 10/13 month first)', () => {
    expect(fieldsFromText('DOB 01/15/1991\nEXP 10/13/2029', now, null)).toMatchObject({
      dateOfBirth: '1991-01-15',
      expiryDate: '2029-10-13',
    });
    expect(fieldsFromText('DOB 15/01/1991\nEXP 13/10/2029', now, 'US')).toMatchObject({
      dateOfBirth: '1991-01-15',
      expiryDate: '2029-10-13',
    });
  });
  it('the expiry is the latest date when it is to come or three were read; two past dates leave it unknown', () => {
    // Birth, issue, expiry all past: expired.
    expect(fieldsFromText('DOB 01/15/1971\nISS 11/19/2014\nEXP 10/13/2024', now, 'US').expiryDate).toBe('2024-10-13');
    // The expiry misread: birth and issue dates alone say nothing about it.
    expect(fieldsFromText('DOB 01/15/1971\n<P 1O/13/2O29\nISS 11/19/2024', now, 'US').expiryDate).toBeNull();
    // Birth and expiry, the expiry to come.
    expect(fieldsFromText('DOB 01/15/1971\nEXP 10/13/2029', now, 'US').expiryDate).toBe('2029-10-13');
  });
  it('a past expiry labelled so is claimed from two dates when the one before it could be its issue date', () => {
    // A US licence whose birth date was misread (79/16): its expiry and issue dates remain, the expiry labelled XP (its E lost).
    const licence = 'DOB\n79/16/2005\nXP\nal 08/21/2021\ni ISS\n05/08/2016';
    expect(fieldsFromText(licence, now, 'US').expiryDate).toBe('2021-08-21');
    // The same on the label's own line, and in other languages.
    expect(fieldsFromText('4a. 05.08.2014\n4b. 05.08.2024', now).expiryDate).toBe('2024-08-05');
    expect(fieldsFromText("Date de délivrance\n05.08.2014\nDate d'expiration\n05.08.2024", now).expiryDate).toBe('2024-08-05');
    // Unlabelled, two past dates say nothing.
    expect(fieldsFromText('DOB\n79/16/2005\n08/21/2021\n05/08/2016', now, 'US').expiryDate).toBeNull();
    // Labels in columns over their dates: each date takes its column's label (a licence's 3 DOB 4a ISS).
    expect(fieldsFromText('Date of issue Date of expiry\n25 04 2014 17 05 2024', now).expiryDate).toBe('2024-05-17');
    expect(readTextFields('3 DOB 4a ISS 9a Endorsements\n04/24/1976 08/27/2015', now, 'US').dates).toEqual([
      { iso: '1976-04-24', label: 'birth' },
      { iso: '2015-08-27', label: 'issue' },
    ]);
    // Fewer dates than labels: no column is sure of its date.
    expect(readTextFields('Issued On Expires On\n29 NOV 2019', now).dates).toEqual([{ iso: '2019-11-29', label: null }]);
    // Labelled, but the date before it is a birth date (33 years before): no issue date to pair it with.
    expect(fieldsFromText('EXP 06.04.2024\nDOB 04.03.1991', now).expiryDate).toBeNull();
    // A label of another field above the date does not count.
    expect(fieldsFromText('ISS\n05.08.2024\nDOB\n05.08.2014', now).expiryDate).toBeNull();
  });
  it('a past date labelled as the issue date is never the expiry, though three dates were read', () => {
    // its expiry 16 04 2029 read 16 04 2020 under its label; the issue date, the
    // latest, had been taken for the expiry and a genuine user rejected as expired.
    const card =
      'Date de naissance / Date of birth\n|B [vr mf] 25091985\nDate de délivrance / Date of issye\niE 25102024 ;\n' +
      "| Date d'expiration / pat i i\n1 16 04 2020 ate of expiry |";
    expect(fieldsFromText(card, now)).toMatchObject({ dateOfBirth: '1985-09-25', expiryDate: null });
    // Unlabelled, the latest of three past dates is still the expiry.
    expect(fieldsFromText('25091985\n16 04 2020\n25102024', now).expiryDate).toBe('2024-10-25');
  });
  it('a day or month that lost one digit to a mark takes the only digit that makes it a date', () => {
    // 06/28/2030 read V6/28/2030: only 06 is a month with a 28th day in either order.
    expect(fieldsFromText('DOB\n15/02/1985\nXp\n| men V6/28/2030\nIss\n03/24/2025', now).expiryDate).toBe('2030-06-28');
    // Several digits would make a date (05, 15, 25): left as read, no date.
    expect(fieldsFromText('EXP V5.08.2030', now).expiryDate).toBeNull();
    // Two characters lost: left as read.
    expect(fieldsFromText('EXP VV.08.2030', now).expiryDate).toBeNull();
  });
  it("a day's or a month's digits split by a space (22.1 2.2034) are one group again, within a separated date only", () => {
    // every reading of its expiry: Date of expiry / c47851031 22.1 2.2034.
    expect(fieldsFromText('Document No. Date of expiry\nc47851031 22.1 2.2034', now).expiryDate).toBe('2034-12-22');
    expect(fieldsFromText('Date of birth\n0 1.07.1995', now).dateOfBirth).toBe('1995-07-01');
    expect(fieldsFromText('EXP 22/1 2/2034', now).expiryDate).toBe('2034-12-22');
    // Two separators that differ, or a group split twice: no date is made of them.
    expect(fieldsFromText('EXP 22.1 2/2034', now).expiryDate).toBeNull();
    expect(fieldsFromText('EXP 2 2.1 2.2034', now).expiryDate).toBeNull();
    // A digit before a whole date is not taken into its day.
    expect(fieldsFromText('EXP 1 22.12.2034', now).expiryDate).toBe('2034-12-22');
  });
  it('a month name whose O was read as a zero (27 0CT 2033) is still a month, and no document number', () => {
    expect(fieldsFromText('KARKKAINEN\n21DEC1982 ;\n270cT2033', now)).toMatchObject({
      dateOfBirth: '1982-12-21',
      expiryDate: '2033-10-27',
      documentNumber: null,
    });
  });
  it('a month-name date whose label ran into its day (4b. 27 MAY read B27 MAY) is still a date; letters and digits run together are a number', () => {
    // Held-out dcdf/071, a licence's fields as read: the expiry's label lost its space.
    const licence = '3. 15 NOV 1974 FRANCE\n| sa. 26 JUL 2019\na B27 MAY 2034\n5. 54845395863';
    expect(fieldsFromText(licence, now)).toMatchObject({ dateOfBirth: '1974-11-15', expiryDate: '2034-05-27' });
    // No space or mark between the day and the month: a document number, not a date.
    expect(fieldsFromText('No AB12MAR2031\nDOB 01 JAN 1990', now)).toMatchObject({ documentNumber: 'AB12MAR2031', expiryDate: null });
  });
  it('a month-name date whose J was lost or read as a bracket (15 UN 2006, 15)UN 2006) is still a date, between a day and a year only', () => {
    // Held-out a180/083, an expired licence as read: its issue date's J lost, its expiry's label 4b. read ab.
    const licence = 'DRIVING LICENCE DENMARK\n1 MUNOZ\n2 METTE\n5 08NOV1999 DENMARK\nAY JN ce 15 UN 2006\nab. 26 APR 2021\n5. 520321395';
    expect(fieldsFromText(licence, now)).toMatchObject({ dateOfBirth: '1999-11-08', expiryDate: '2021-04-26' });
    expect(fieldsFromText('4a. 15)UN 2006\n4b. 14 JUN 2031', now).expiryDate).toBe('2031-06-14');
    expect(fieldsFromText('DOB 03 UL 1990\nEXP 9 AN 2030', now)).toMatchObject({ dateOfBirth: '1990-07-03', expiryDate: '2030-01-09' });
    // Other letters, or the tail without a day before it or a year after it: no date.
    expect(fieldsFromText('DOB 03 UK 1990\nEXP 9 ON 2030', now)).toMatchObject({ dateOfBirth: null, expiryDate: null });
    expect(fieldsFromText('UNION 2030\nEXP UN 2030\nEXP 12 UNITED 2030', now).expiryDate).toBeNull();
  });
  it('documentType: where the zone is looked for first', () => {
    expect(zoneSides('passport', 'front', 'back')).toEqual(['front']);
    expect(zoneSides('national_id', 'front', 'back')).toEqual(['back', 'front']);
    expect(zoneSides('dni', 'front', 'back')).toEqual(['back', 'front']);
    expect(zoneSides(null, 'front', 'back')).toEqual(['front', 'back']);
    expect(zoneSides('national_id', 'front', null)).toEqual(['front']);
  });
});
