/**
 * The machine-readable zones of ICAO 9303 (and the older French identity card's), as tables: where
 * each field lies, and which check digit covers it. A zone is read field by field against this
 * table (zone-fields.ts), so one misread field never costs the others.
 */

export type ZoneLayout = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B' | 'FR-ID';

/** A run of characters: [line, first column, length]. */
export type Span = readonly [line: number, at: number, length: number];

/** A field with its own check digit. */
export interface CheckedSpan {
  value: Span;
  check: Span;
}

export interface LayoutTable {
  lines: number;
  width: number;
  documentCode: Span;
  issuingState: Span;
  /** The name field: surname `<<` given names (FR-ID: the surname alone; its given names are `givenNames`). */
  name: Span;
  givenNames?: Span;
  documentNumber: CheckedSpan;
  dateOfBirth: CheckedSpan;
  expiryDate?: CheckedSpan;
  nationality?: Span;
  sex: Span;
  /** The spans the composite check digit covers, in order, and the digit itself. */
  composite?: { covers: readonly Span[]; check: Span };
  /** TD1: optional data that continues a document number longer than nine characters. */
  numberContinues?: Span;
}

const ICAO_LAYOUTS = {
  TD1: {
    lines: 3,
    width: 30,
    documentCode: [0, 0, 2],
    issuingState: [0, 2, 3],
    documentNumber: { value: [0, 5, 9], check: [0, 14, 1] },
    numberContinues: [0, 15, 15],
    dateOfBirth: { value: [1, 0, 6], check: [1, 6, 1] },
    sex: [1, 7, 1],
    expiryDate: { value: [1, 8, 6], check: [1, 14, 1] },
    nationality: [1, 15, 3],
    composite: {
      covers: [
        [0, 5, 25],
        [1, 0, 7],
        [1, 8, 7],
        [1, 18, 11],
      ],
      check: [1, 29, 1],
    },
    name: [2, 0, 30],
  },
  TD2: {
    lines: 2,
    width: 36,
    documentCode: [0, 0, 2],
    issuingState: [0, 2, 3],
    name: [0, 5, 31],
    documentNumber: { value: [1, 0, 9], check: [1, 9, 1] },
    nationality: [1, 10, 3],
    dateOfBirth: { value: [1, 13, 6], check: [1, 19, 1] },
    sex: [1, 20, 1],
    expiryDate: { value: [1, 21, 6], check: [1, 27, 1] },
    composite: {
      covers: [
        [1, 0, 10],
        [1, 13, 7],
        [1, 21, 14],
      ],
      check: [1, 35, 1],
    },
  },
  TD3: {
    lines: 2,
    width: 44,
    documentCode: [0, 0, 2],
    issuingState: [0, 2, 3],
    name: [0, 5, 39],
    documentNumber: { value: [1, 0, 9], check: [1, 9, 1] },
    nationality: [1, 10, 3],
    dateOfBirth: { value: [1, 13, 6], check: [1, 19, 1] },
    sex: [1, 20, 1],
    expiryDate: { value: [1, 21, 6], check: [1, 27, 1] },
    composite: {
      covers: [
        [1, 0, 10],
        [1, 13, 7],
        [1, 21, 22],
      ],
      check: [1, 43, 1],
    },
  },
  // The French identity card issued until 2021: surname on the first line, a 12-character number
  // and the given names on the second, no expiry and no nationality in the zone.
  'FR-ID': {
    lines: 2,
    width: 36,
    documentCode: [0, 0, 2],
    issuingState: [0, 2, 3],
    name: [0, 5, 25],
    givenNames: [1, 13, 14],
    documentNumber: { value: [1, 0, 12], check: [1, 12, 1] },
    dateOfBirth: { value: [1, 27, 6], check: [1, 33, 1] },
    sex: [1, 34, 1],
    composite: {
      covers: [
        [0, 0, 36],
        [1, 0, 35],
      ],
      check: [1, 35, 1],
    },
  },
} satisfies Record<Exclude<ZoneLayout, 'MRV-A' | 'MRV-B'>, LayoutTable>;

/** A layout without its composite check digit: a visa is the passport's (MRV-A) or TD2 card's (MRV-B) zone so. */
const withoutComposite = ({ composite: _, ...t }: LayoutTable): LayoutTable => t;

export const LAYOUTS: Record<ZoneLayout, LayoutTable> = {
  ...ICAO_LAYOUTS,
  'MRV-A': withoutComposite(ICAO_LAYOUTS.TD3),
  'MRV-B': withoutComposite(ICAO_LAYOUTS.TD2),
};

/**
 * The layouts lines of this shape may be: two lines of 44 a passport's or a visa's, of 36 a TD2
 * card's, a visa's or the old French card's, three of 30 a TD1 card's. The document code tells a
 * visa (V) first; a 36-character zone starting `IDFRA` is tried both ways (the check digits decide).
 */
export function layoutsFor(lines: readonly string[]): ZoneLayout[] {
  const widths = lines.map((l) => l.length);
  const visa = lines[0]?.[0] === 'V';
  if (lines.length === 3 && widths.every((w) => w === 30)) return ['TD1'];
  if (lines.length !== 2 || widths[0] !== widths[1]) return [];
  if (widths[0] === 44) return visa ? ['MRV-A', 'TD3'] : ['TD3', 'MRV-A'];
  if (widths[0] !== 36) return [];
  if (/^I.FRA/.test(lines[0]!)) return ['FR-ID', 'TD2'];
  return visa ? ['MRV-B', 'TD2'] : ['TD2', 'MRV-B'];
}

/** The characters of a span. */
export const take = (lines: readonly string[], [line, at, length]: Span): string => (lines[line] ?? '').slice(at, at + length);

/** ICAO 9303 check digit: weights 7, 3, 1 over digits, letters A=10..Z=35 and `<`=0, mod 10. */
export function checkDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : /[A-Z]/.test(c) ? c.charCodeAt(0) - 55 : 0;
    sum += v * weights[i % 3]!;
  }
  return String(sum % 10);
}
