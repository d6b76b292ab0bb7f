/** ICAO 9303 check digit: weights 7, 3, 1 over digits, letters A=10..Z=35 and `<`=0, mod 10. */
export function mrzCheckDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * weights[i % 3]!;
  }
  return String(sum % 10);
}

const pad = (s: string, n: number) => s.slice(0, n).padEnd(n, '<');

export interface MrzPerson {
  documentCode?: string;
  issuingState: string;
  surname: string;
  givenNames: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD */
  expiryDate: string;
  optional?: string;
}

/** Names in MRZ form: uppercase A-Z, `<` between parts, `<<` between surname and given names. */
export function mrzName(surname: string, givenNames: string): string {
  const clean = (s: string) =>
    s
      .toUpperCase()
      .trim()
      .replace(/[^A-Z]+/g, '<');
  return `${clean(surname)}<<${clean(givenNames)}`;
}

/** A passport (TD3) MRZ: two lines of 44 with every check digit. */
export function composeTd3(p: MrzPerson): [string, string] {
  const line1 = pad(`${p.documentCode ?? 'P<'}${pad(p.issuingState, 3)}${mrzName(p.surname, p.givenNames)}`, 44);
  const num = pad(p.documentNumber, 9);
  const opt = pad(p.optional ?? '', 14);
  const parts = [
    num,
    mrzCheckDigit(num),
    pad(p.nationality, 3),
    p.birthDate,
    mrzCheckDigit(p.birthDate),
    p.sex,
    p.expiryDate,
    mrzCheckDigit(p.expiryDate),
    opt,
    mrzCheckDigit(opt),
  ];
  const body = parts.join('');
  const composite = mrzCheckDigit(
    `${num}${mrzCheckDigit(num)}${p.birthDate}${mrzCheckDigit(p.birthDate)}${p.expiryDate}${mrzCheckDigit(p.expiryDate)}${opt}${mrzCheckDigit(opt)}`,
  );
  return [line1, `${body}${composite}`];
}

/** An ID card (TD1) MRZ: three lines of 30 with every check digit. */
export function composeTd1(p: MrzPerson): [string, string, string] {
  const num = pad(p.documentNumber, 9);
  const opt1 = pad(p.optional ?? '', 15);
  const line1 = `${pad(p.documentCode ?? 'ID', 2)}${pad(p.issuingState, 3)}${num}${mrzCheckDigit(num)}${opt1}`;
  const opt2 = pad('', 11);
  const line2noComposite = `${p.birthDate}${mrzCheckDigit(p.birthDate)}${p.sex}${p.expiryDate}${mrzCheckDigit(p.expiryDate)}${pad(p.nationality, 3)}${opt2}`;
  const composite = mrzCheckDigit(
    `${line1.slice(5, 30)}${line2noComposite.slice(0, 7)}${line2noComposite.slice(8, 15)}${line2noComposite.slice(18, 29)}`,
  );
  return [line1, `${line2noComposite}${composite}`, pad(mrzName(p.surname, p.givenNames), 30)];
}
