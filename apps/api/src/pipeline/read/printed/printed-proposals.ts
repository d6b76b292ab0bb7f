import type { Proposal } from '../../evidence/candidates.js';
import { normalizeName } from '../../score/name-match.js';
import type { TextReading } from '../ocr/ocr.js';
import { numberByLabel } from './printed-number.js';
import { printedFields } from './printed-fields.js';
import { PRINTED_TUNING } from './printed-tuning.js';
import { readTextFields, type TextFieldsReading } from './text-fields.js';

/** A page of printed text read, with what it proposes for each field. */
export interface PrintedReading extends TextReading {
  proposals: Proposal[];
  /** Its dates as read (labels, dates beyond any validity), for the fusion's expiry rules. */
  dates: TextFieldsReading;
}

/**
 * What a reading of printed text proposes: names and nationality by their labels, the document
 * number by its label (else a number-like word), dates by their labels (else by their order: the
 * earliest past date a birth, the latest an expiry). Each proposal is as sure as its label makes
 * it and as the recogniser was of the page; a name word the recogniser was unsure of makes the
 * name less sure. Nothing here knows what the user typed.
 */
export function printedProposals(reading: TextReading, now: Date, country: string | null): PrintedReading {
  const t = PRINTED_TUNING.confidence;
  const sureness = t.pageWeight.floor + (1 - t.pageWeight.floor) * reading.confidence;
  const unsure = new Set(reading.unsureWords.flatMap((w) => normalizeName(w).split(' ')));
  const namesSure = (name: string) => !normalizeName(name).split(' ').some((w) => unsure.has(w));
  const proposals: Proposal[] = [];
  const propose = (field: Proposal['field'], value: string | null, base: number) => {
    if (value) proposals.push({ field, value, confidence: Math.min(1, base * sureness), checked: null });
  };

  const labels = printedFields(reading.text);
  if (labels.surname) propose('surname', labels.surname, namesSure(labels.surname) ? t.labelledName : t.unsureName);
  if (labels.givenNames) propose('givenNames', labels.givenNames, namesSure(labels.givenNames) ? t.labelledName : t.unsureName);
  propose('nationality', labels.nationality, t.labelledNationality);

  const dates = readTextFields(reading.text, now, country);
  const labelled = (label: 'birth' | 'expiry' | 'issue') => dates.dates.filter((d) => d.label === label).map((d) => d.iso);
  const [birthByLabel] = labelled('birth');
  const expiryByLabel = labelled('expiry').at(-1);
  const [issueByLabel] = labelled('issue');
  const labelOf = (iso: string | null) => dates.dates.find((d) => d.iso === iso)?.label ?? null;
  if (birthByLabel) propose('dateOfBirth', birthByLabel, t.labelledDate);
  else if (dates.fields.dateOfBirth && labelOf(dates.fields.dateOfBirth) === null) propose('dateOfBirth', dates.fields.dateOfBirth, t.dateByOrder);
  // A past expiry under its label stands only where the page's dates bear it out (an issue date
  // before it: text-fields.ts); alone, one misread digit of a valid expiry would reject a user.
  const today = now.toISOString().slice(0, 10);
  if (expiryByLabel && (expiryByLabel >= today || expiryByLabel === dates.fields.expiryDate)) propose('expiryDate', expiryByLabel, t.labelledDate);
  else if (dates.fields.expiryDate && labelOf(dates.fields.expiryDate) !== 'issue' && labelOf(dates.fields.expiryDate) !== 'birth')
    propose('expiryDate', dates.fields.expiryDate, t.dateByOrder);
  propose('issueDate', issueByLabel ?? null, t.labelledDate);

  const byLabel = numberByLabel(reading.text);
  if (byLabel) propose('documentNumber', byLabel, t.labelledNumber);
  else propose('documentNumber', dates.fields.documentNumber, t.numberByShape);
  return { ...reading, proposals, dates };
}
