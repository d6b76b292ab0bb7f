/**
 * Evidence: what a reading proposes for each field of the document, before anything is chosen.
 * Readers (the zone reader, the printed-field reader) turn text into candidates; `fuse` chooses
 * among them by check digits and by agreement between readings and sides. The user's claim plays
 * no part in either: it is compared with the fused fields afterwards (score/).
 */

export type FieldName = 'surname' | 'givenNames' | 'documentNumber' | 'dateOfBirth' | 'expiryDate' | 'issueDate' | 'nationality';

export const FIELD_NAMES: readonly FieldName[] = [
  'surname',
  'givenNames',
  'documentNumber',
  'dateOfBirth',
  'expiryDate',
  'issueDate',
  'nationality',
];

/** Where a candidate was read. */
export interface Source {
  kind: 'zone' | 'printed';
  side: 'front' | 'back';
  /** Which reading of that side (a zone region, a page read binarised or grey, squared up, its block). */
  reading: string;
}

export interface Candidate {
  field: FieldName;
  /**
   * The value as the contract reports it: dates ISO 8601 (YYYY-MM-DD), names in capitals as
   * printed (diacritics kept where the print has them), codes and numbers without fillers.
   */
  value: string;
  /** How sure the reading is of it, 0-1 (its check digit, its label, the recogniser's confidence). */
  confidence: number;
  /** The field's own check digit: true holds, false fails, null where the field has none. */
  checked: boolean | null;
  /** A date read with a two-digit year (a zone's YYMMDD): its century is the fusion's to choose. */
  twoDigitYear?: boolean;
  /** Look-alike characters (O/0, I/1, B/8 ...) swapped for the check digit to hold. */
  repaired?: boolean;
  /** A name read from a zone field full to its end: the name may go on where the field stops. */
  truncated?: boolean;
  source: Source;
}

/** A candidate without its field and source: what a reader's parsers return before the reading is named. */
export type Proposal = Omit<Candidate, 'source'>;

/** One reading's proposals, named. */
export const fromReading = (source: Source, proposals: readonly Proposal[]): Candidate[] => proposals.map((p) => ({ ...p, source }));
