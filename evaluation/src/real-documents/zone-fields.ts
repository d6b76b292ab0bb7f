/**
 * The fields of a machine-readable zone as a layout places them, and their check digits
 * (ICAO 9303 parts 4-7; the older French card's own layout). Used to check the truth typed into
 * the manifest against the zone it transcribes: the `mrz` package knows no visa layouts.
 */
import type { Layout } from './layouts.js';

/** A check digit's name, as the manifest's `badCheckDigits` lists those a specimen prints wrong. */
export type CheckName = 'documentNumber' | 'dateOfBirth' | 'expiryDate' | 'personalNumber' | 'composite';

export interface ZoneFields {
  documentNumber: string;
  /** YYMMDD as printed. */
  dateOfBirth: string;
  /** YYMMDD; null where the layout has none (the older French card). */
  expiryDate: string | null;
  nationality: string | null;
  checks: { name: CheckName; valid: boolean }[];
}

const WEIGHTS = [7, 3, 1] as const;

function charValue(c: string): number {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'A' && c <= 'Z') return c.charCodeAt(0) - 55;
  if (c === '<') return 0;
  throw new Error(`not a zone character: ${JSON.stringify(c)}`);
}

/** ICAO 9303's check digit of a field: weights 7-3-1, letters A=10..Z=35, filler 0. */
export function checkDigit(field: string): string {
  let sum = 0;
  for (let i = 0; i < field.length; i++) sum += charValue(field[i]!) * WEIGHTS[i % 3]!;
  return String(sum % 10);
}

const unfill = (s: string): string => s.replace(/</g, '');

function check(name: CheckName, field: string, digit: string | undefined): { name: CheckName; valid: boolean } {
  return { name, valid: digit !== undefined && checkDigit(field) === digit };
}

const WIDTHS: Partial<Record<Layout, { lines: number; width: number }>> = {
  TD1: { lines: 3, width: 30 },
  TD2: { lines: 2, width: 36 },
  TD3: { lines: 2, width: 44 },
  'MRV-A': { lines: 2, width: 44 },
  'MRV-B': { lines: 2, width: 36 },
  'FR-ID-2x36': { lines: 2, width: 36 },
};

/** Whether a layout carries a zone at all. */
export function hasZone(layout: Layout): boolean {
  return WIDTHS[layout] !== undefined;
}

/** Reads a zone's lines as `layout` places its fields; throws where the lines do not fit it. */
export function zoneFields(layout: Layout, lines: readonly string[]): ZoneFields {
  const shape = WIDTHS[layout];
  if (!shape) throw new Error(`layout ${layout} has no zone`);
  if (lines.length !== shape.lines || lines.some((l) => l.length !== shape.width || !/^[A-Z0-9<]+$/.test(l))) {
    throw new Error(`a ${layout} zone is ${shape.lines} lines of ${shape.width} zone characters`);
  }
  const [a, b] = lines as [string, string, string?];
  if (layout === 'TD1') return td1(a, b, lines[2]!);
  if (layout === 'FR-ID-2x36') {
    return {
      documentNumber: unfill(b.slice(0, 12)),
      dateOfBirth: b.slice(27, 33),
      expiryDate: null,
      nationality: 'FRA',
      checks: [
        check('documentNumber', b.slice(0, 12), b[12]),
        check('dateOfBirth', b.slice(27, 33), b[33]),
        check('composite', a + b.slice(0, 35), b[35]),
      ],
    };
  }
  // TD2, TD3 and both visas place line 2's first fields alike.
  const checks = [
    check('documentNumber', b.slice(0, 9), b[9]),
    check('dateOfBirth', b.slice(13, 19), b[19]),
    check('expiryDate', b.slice(21, 27), b[27]),
  ];
  if (layout === 'TD3') {
    const personal = b.slice(28, 42);
    // A personal number of fillers only may carry a filler for its check digit.
    if (unfill(personal) !== '' || b[42] !== '<') checks.push(check('personalNumber', personal, b[42]));
    checks.push(check('composite', b.slice(0, 10) + b.slice(13, 20) + b.slice(21, 43), b[43]));
  } else if (layout === 'TD2') {
    checks.push(check('composite', b.slice(0, 10) + b.slice(13, 20) + b.slice(21, 35), b[35]));
  }
  return {
    documentNumber: unfill(b.slice(0, 9)),
    dateOfBirth: b.slice(13, 19),
    expiryDate: b.slice(21, 27),
    nationality: unfill(b.slice(10, 13)) || null,
    checks,
  };
}

function td1(a: string, b: string, _c: string): ZoneFields {
  let documentNumber = a.slice(5, 14);
  let numberCheck = check('documentNumber', documentNumber, a[14]);
  if (a[14] === '<' && a[15] !== '<') {
    // A number longer than nine characters runs on into the optional data, its check digit last.
    const rest = a.slice(15, 30).split('<')[0]!;
    documentNumber += rest.slice(0, -1);
    numberCheck = check('documentNumber', documentNumber, rest.slice(-1));
  }
  return {
    documentNumber: unfill(documentNumber),
    dateOfBirth: b.slice(0, 6),
    expiryDate: b.slice(8, 14),
    nationality: unfill(b.slice(15, 18)) || null,
    checks: [
      numberCheck,
      check('dateOfBirth', b.slice(0, 6), b[6]),
      check('expiryDate', b.slice(8, 14), b[14]),
      check('composite', a.slice(5, 30) + b.slice(0, 7) + b.slice(8, 15) + b.slice(18, 29), b[29]),
    ],
  };
}
