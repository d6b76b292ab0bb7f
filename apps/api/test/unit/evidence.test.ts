import { describe, expect, it } from 'vitest';
import { composeTd3 } from '@service/fixtures/mrz-compose';
import type { Proposal } from '../../src/pipeline/evidence/candidates.js';
import { withCenturiesFromDocument } from '../../src/pipeline/evidence/centuries.js';
import { fuse, type DocumentEvidence } from '../../src/pipeline/evidence/fuse.js';
import { fieldKey, misreadingOf } from '../../src/pipeline/evidence/field-keys.js';
import { numberByLabel } from '../../src/pipeline/read/printed/printed-number.js';
import { printedProposals, type PrintedReading } from '../../src/pipeline/read/printed/printed-proposals.js';
import { zoneInText } from '../../src/pipeline/read/zone/zone-lines.js';
import { claimNameScore, misreadTolerantScore } from '../../src/pipeline/score/claim-name.js';
import { documentReadScore } from '../../src/pipeline/score/document-score.js';
import { fieldsExtracted } from '../../src/pipeline/score/judge.js';
import { settled } from '../../src/pipeline/strategy/read-document.js';

const NOW = new Date('2026-11-21T00:00:00Z');
const TODAY = '2026-11-21';

const page = (text: string, confidence = 0.9, unsureWords: string[] = []): PrintedReading =>
  printedProposals({ text, confidence, unsureWords }, NOW, null);
const printed = (...pages: PrintedReading[]) => pages.map((p, i) => ({ side: 'front' as const, reading: `page/${i}`, page: p }));
const zoneOf = (lines: readonly string[]) => {
  const zone = zoneInText(lines.join('\n'), NOW);
  if (!zone) throw new Error('no zone');
  return [{ side: 'front' as const, reading: 'zone', zone }];
};
const person = {
  issuingState: 'ESP',
  surname: 'MARTINEZ GARCIA',
  givenNames: 'ANA LUCIA',
  documentNumber: 'PAB123456',
  nationality: 'ESP',
  birthDate: '900228',
  sex: 'F' as const,
  expiryDate: '310514',
};
const CARD =
  'IDENTITY CARD\nSurname\nMARTÍNEZ GARCÍA\nGiven names\nANA LUCÍA\nDate of birth 28.02.1990\nDocument No. PAB123456\nDate of expiry 14.05.2031';

describe('fusion: each field chosen by check digits and agreement, never by a claim', () => {
  it('a zone whose checks hold gives its fields; the print agreeing adds nothing to doubt', () => {
    const e = fuse({ zones: zoneOf(composeTd3(person)), printed: printed(page(CARD)) }, TODAY);
    expect(fieldsExtracted(e)).toEqual({
      fullName: 'ANA LUCIA MARTINEZ GARCIA',
      documentNumber: 'PAB123456',
      dateOfBirth: '1990-02-28',
      expiryDate: '2031-05-14',
      nationality: 'ESP',
    });
    expect(e.fields.documentNumber.checked).toBe(true);
    expect(e.disagreements).toEqual([]);
  });

  it('a field whose check digit fails is not reported from the zone alone; a printed reading agreeing with it reports it', () => {
    const [l1, l2] = composeTd3(person);
    const misread = `${l2.slice(0, 14)}${l2[14] === '1' ? '7' : '1'}${l2.slice(15)}`; // the birth date's second digit
    const alone = fuse({ zones: zoneOf([l1, misread]), printed: [] }, TODAY);
    expect(alone.fields.dateOfBirth.value).toBeNull();
    expect(alone.fields.expiryDate.value).toBe('2031-05-14');
  });

  it('the zone and a sure print that disagree on a checked field: a disagreement, never silently one of them', () => {
    const other = CARD.replace('14.05.2031', '14.05.2033');
    const e = fuse({ zones: zoneOf(composeTd3(person)), printed: printed(page(other), page(other)) }, TODAY);
    expect(e.fields.expiryDate.value).toBe('2031-05-14');
    expect(e.disagreements).toEqual(['expiryDate']);
    // One unsure reading of the print is a misreading, not a disagreement.
    expect(fuse({ zones: zoneOf(composeTd3(person)), printed: printed(page(other, 0.3)) }, TODAY).disagreements).toEqual([]);
  });

  it('printed fields without a check digit: one sure reading reports, two agreeing readings are surer, an unsure one alone does not', () => {
    const one = fuse({ zones: [], printed: printed(page(CARD)) }, TODAY);
    expect(one.fields.surname.value).toBe('MARTINEZ GARCIA');
    const two = fuse({ zones: [], printed: printed(page(CARD), page(CARD)) }, TODAY);
    expect(two.fields.surname.confidence).toBeGreaterThan(one.fields.surname.confidence);
    const unsure = fuse({ zones: [], printed: printed(page(CARD, 0.3, ['MARTÍNEZ'])) }, TODAY);
    expect(unsure.fields.surname.value).toBeNull();
  });

  it("a zone's name cut at its field's end joins the print that shows all of it", () => {
    const long = { ...person, surname: 'WOLKENSTEIN RODENEGG', givenNames: 'ALEXANDRINA MARIA THERESIA' };
    const zone = zoneOf(composeTd3(long));
    expect(zone[0]!.zone.nameTruncated).toBe(true);
    const card = 'Surname\nWOLKENSTEIN RODENEGG\nGiven names\nALEXANDRINA MARIA THERESIA';
    const e = fuse({ zones: zone, printed: printed(page(card)) }, TODAY);
    expect(e.fields.givenNames.value).toBe('ALEXANDRINA MARIA THERESIA');
  });

  it('grouping keys: numbers with look-alikes folded, names as a zone writes them, misreadings a few letters apart', () => {
    expect(fieldKey('documentNumber', 'PAB12345O')).toBe(fieldKey('documentNumber', 'PA812345 0'));
    expect(fieldKey('surname', 'Müller')).toBe(fieldKey('surname', 'MUELLER'));
    expect(misreadingOf('LINDQVIST', 'LINDQUIST')).toBe(true);
    expect(misreadingOf('HADDAD', 'MARCHAND')).toBe(false);
  });

  it('two-digit years take their century from the document: a birth before its issue date', () => {
    const birth: Proposal = { field: 'dateOfBirth', value: '2011-03-01', confidence: 0.99, checked: true, twoDigitYear: true };
    const issue: Proposal = { field: 'issueDate', value: '2002-05-10', confidence: 0.8, checked: null };
    const source = { kind: 'zone' as const, side: 'front' as const, reading: 'zone' };
    const [b] = withCenturiesFromDocument(
      [
        { ...birth, source },
        { ...issue, source: { ...source, kind: 'printed' } },
      ],
      TODAY,
    );
    expect(b!.value).toBe('1911-03-01');
    // Without an issue date, a birth in the past keeps its century.
    expect(withCenturiesFromDocument([{ ...birth, source }], TODAY)[0]!.value).toBe('2011-03-01');
  });
});

describe('printed proposals', () => {
  it('names and nationality by their labels, dates by their labels, the number by its label', () => {
    const p = page(`${CARD}\nNationality ESP`);
    const byField = Object.fromEntries(p.proposals.map((x) => [x.field, x.value]));
    expect(byField).toMatchObject({
      surname: 'MARTINEZ GARCIA',
      givenNames: 'ANA LUCIA',
      dateOfBirth: '1990-02-28',
      expiryDate: '2031-05-14',
      documentNumber: 'PAB123456',
      nationality: 'ESP',
    });
  });

  it('document numbers by their labels, on the line or below it, in the forms licences and passports print', () => {
    expect(numberByLabel('Passport No.\nX4829107')).toBe('X4829107');
    expect(numberByLabel('4d DLN 123 456 789')).toBe('123456789');
    expect(numberByLabel('5. 50365051566')).toBe('50365051566');
    expect(numberByLabel('Document No: AB12345')).toBe('AB12345');
    expect(numberByLabel('Date of birth 12.03.1990')).toBeNull();
  });
});

describe('the claim, compared after the fusion', () => {
  const evidence = (card: string): DocumentEvidence => fuse({ zones: [], printed: printed(page(card), page(card)) }, TODAY);
  it('a name read as the typed one passes; another surname does not', () => {
    expect(claimNameScore('Ana Lucía Martínez García', evidence(CARD))).toBe(1);
    // The given names found in the text keep another surname in review at most, never approved.
    expect(claimNameScore('Ana Lucía Moreau', evidence(CARD))).toBeLessThan(0.85);
    expect(claimNameScore('Pierre Moreau', evidence(CARD))).toBeLessThan(0.6);
  });

  it('a reading the recogniser is known to make of the typed name passes, below an exact reading', () => {
    const score = misreadTolerantScore('Anna Łukaszewska', { surname: 'TUKASZEWSKA', givenNames: 'ANNA' });
    expect(score).toBeGreaterThanOrEqual(0.85);
    expect(score).toBeLessThan(1);
    expect(misreadTolerantScore('Anna Kowalska', { surname: 'NOWAK', givenNames: 'ANNA' })).toBeLessThan(0.6);
  });

  it('the reported fields never carry the claim: another name typed leaves them as read', () => {
    const e = evidence(CARD);
    claimNameScore('Ana Moreau', e);
    expect(fieldsExtracted(e).fullName).toBe('ANA LUCIA MARTINEZ GARCIA');
  });
});

describe('document_ocr and when a reading settles', () => {
  it('a zone whose checks hold scores 1; printed fields score by confidence and share found; no portrait costs', () => {
    const zone = fuse({ zones: zoneOf(composeTd3(person)), printed: [] }, TODAY);
    expect(documentReadScore(zone, { documentFace: true, licence: false }).score).toBe(1);
    const card = fuse({ zones: [], printed: printed(page(CARD)) }, TODAY);
    const read = documentReadScore(card, { documentFace: true, licence: false });
    expect(read.score).toBeGreaterThan(0.6);
    expect(read.score).toBeLessThan(1);
    expect(documentReadScore(card, { documentFace: false, licence: false }).score).toBeLessThan(read.score);
  });

  // The US resident card whose number's check digit is misprinted: its dates and name read surely
  // from the zone, beside a page its recogniser read poorly.
  it("a zone with some checks failing counts its share of checks holding, not the page's confidence", () => {
    const [l1, l2] = composeTd3(person);
    const misprinted = `${l1}\n${l2.slice(0, 9)}${(Number(l2[9]) + 3) % 10}${l2.slice(10)}`;
    const zone = zoneInText(misprinted, NOW)!;
    expect(zone.checks).toMatchObject({ documentNumber: false, dateOfBirth: true, expiryDate: true });
    const poorPage = page('P<ESP MARTINEZ GARCIA ANA', 0.2);
    const e = fuse({ zones: [{ side: 'front', reading: 'zone', zone }], printed: printed(poorPage) }, TODAY);
    // Two of four checks hold (the composite fails with the number): 0.5 * 0.5 + 0.5 * 4 of 5 fields.
    expect(documentReadScore(e, { documentFace: true, licence: false }).score).toBeCloseTo(0.65, 2);
  });

  it('settled: name, expiry and number or birth read, and a past expiry borne out by two readings or its check digit', () => {
    expect(settled(fuse({ zones: zoneOf(composeTd3(person)), printed: [] }, TODAY), TODAY)).toBe(true);
    const expired = CARD.replace('14.05.2031', '14.05.2021').replace('Date of birth', 'Date of issue 14.05.2011\nDate of birth');
    expect(settled(fuse({ zones: [], printed: printed(page(expired)) }, TODAY), TODAY)).toBe(false);
    expect(settled(fuse({ zones: [], printed: printed(page(expired), page(expired)) }, TODAY), TODAY)).toBe(true);
  });
});
