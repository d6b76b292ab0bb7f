import { icaoName } from './names.js';

/**
 * Machine-readable zones of the evaluation documents, composed here from ICAO 9303 (Part 4 TD3,
 * Part 5 TD1, Part 6 TD2) independently of the pipeline's own code, so a mistake in one is not
 * silently shared by the other.
 */
export function checkDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55;
    sum += v * weights[i % 3]!;
  }
  return String(sum % 10);
}

const fill = (s: string, n: number) => s.slice(0, n).padEnd(n, '<');

export interface MrzData {
  code: string;
  state: string;
  surname: string;
  given: string[];
  number: string;
  nationality: string;
  /** YYYY-MM-DD */
  birth: string;
  sex: 'F' | 'M';
  /** YYYY-MM-DD */
  expiry: string;
}

const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
const letters = (s: string) => icaoName(s).trim().replace(/[ -]+/g, '<');

/** `SURNAME<<GIVEN<NAMES`, truncated to the zone's width as ICAO allows. */
function nameField(d: MrzData, width: number): string {
  return fill(`${letters(d.surname)}<<${letters(d.given.join(' '))}`, width);
}

export function td3(d: MrzData): string[] {
  const num = fill(d.number, 9);
  const birth = yymmdd(d.birth);
  const expiry = yymmdd(d.expiry);
  const opt = fill('', 14);
  const l1 = fill(`${fill(d.code, 2)}${fill(d.state, 3)}${nameField(d, 39)}`, 44);
  const composite = `${num}${checkDigit(num)}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${opt}${checkDigit(opt)}`;
  const l2 = `${num}${checkDigit(num)}${fill(d.nationality, 3)}${birth}${checkDigit(birth)}${d.sex}${expiry}${checkDigit(expiry)}${opt}${checkDigit(opt)}${checkDigit(composite)}`;
  return [l1, l2];
}

export function td2(d: MrzData): string[] {
  const num = fill(d.number, 9);
  const birth = yymmdd(d.birth);
  const expiry = yymmdd(d.expiry);
  const opt = fill('', 7);
  const l1 = fill(`${fill(d.code, 2)}${fill(d.state, 3)}${nameField(d, 31)}`, 36);
  const composite = `${num}${checkDigit(num)}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${opt}`;
  const l2 = `${num}${checkDigit(num)}${fill(d.nationality, 3)}${birth}${checkDigit(birth)}${d.sex}${expiry}${checkDigit(expiry)}${opt}${checkDigit(composite)}`;
  return [l1, l2];
}

export function td1(d: MrzData): string[] {
  const num = fill(d.number, 9);
  const birth = yymmdd(d.birth);
  const expiry = yymmdd(d.expiry);
  const opt1 = fill('', 15);
  const opt2 = fill('', 11);
  const l1 = `${fill(d.code, 2)}${fill(d.state, 3)}${num}${checkDigit(num)}${opt1}`;
  const l2head = `${birth}${checkDigit(birth)}${d.sex}${expiry}${checkDigit(expiry)}${fill(d.nationality, 3)}${opt2}`;
  const composite = `${num}${checkDigit(num)}${opt1}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${opt2}`;
  return [l1, `${l2head}${checkDigit(composite)}`, nameField(d, 30)];
}
