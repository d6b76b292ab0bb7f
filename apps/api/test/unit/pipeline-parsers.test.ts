import { describe, expect, it } from 'vitest';
import { composeTd1, composeTd3, mrzCheckDigit } from '../../src/pipeline/mrz-compose.js';
import { cleanMrzLine, findMrzLines, mrzDate, parseMrz } from '../../src/pipeline/mrz.js';
import { icaoTransliteration, jaroWinkler, nameMatchScore, normalizeName } from '../../src/pipeline/name-match.js';

const NOW = new Date('2026-11-21T00:00:00Z');

describe('MRZ check digits', () => {
  it('match the ICAO 9303 specimen', () => {
    // P<UTOERIKSSON<<ANNA<MARIA / L898902C36UTO7408122F1204159ZE184226B<<<<<10
    expect(mrzCheckDigit('L898902C3')).toBe('6');
    expect(mrzCheckDigit('740812')).toBe('2');
    expect(mrzCheckDigit('120415')).toBe('9');
    expect(mrzCheckDigit('ZE184226B<<<<<')).toBe('1');
    const [, line2] = composeTd3({ issuingState: 'UTO', surname: 'Eriksson', givenNames: 'Anna Maria', documentNumber: 'L898902C3', nationality: 'UTO', birthDate: '740812', sex: 'F', expiryDate: '120415', optional: 'ZE184226B' });
    expect(line2).toBe('L898902C36UTO7408122F1204159ZE184226B<<<<<10');
  });
});

describe('parseMrz', () => {
  const person = { issuingState: 'ESP', surname: 'Martínez García'.normalize('NFKD').replace(/\p{M}/gu, ''), givenNames: 'Ana Lucia', documentNumber: 'PAB123456', nationality: 'ESP', birthDate: '900228', sex: 'F' as const, expiryDate: '310514' };

  it('reads a TD3 passport with valid check digits', () => {
    expect(parseMrz(composeTd3(person), NOW)).toEqual({
      format: 'TD3',
      documentCode: 'P',
      surname: 'MARTINEZ GARCIA',
      givenNames: 'ANA LUCIA',
      fullName: 'ANA LUCIA MARTINEZ GARCIA',
      documentNumber: 'PAB123456',
      dateOfBirth: '1990-02-28',
      expiryDate: '2031-05-14',
      nationality: 'ESP',
    });
  });

  it('reads a TD1 identity card', () => {
    const r = parseMrz(composeTd1({ ...person, documentNumber: 'CAA000001' }), NOW);
    expect(r).toMatchObject({ format: 'TD1', documentNumber: 'CAA000001', fullName: 'ANA LUCIA MARTINEZ GARCIA', dateOfBirth: '1990-02-28' });
  });

  it('rejects a zone whose check digit does not hold (an OCR misread)', () => {
    const [l1, l2] = composeTd3(person);
    const misread = `${l2.slice(0, 13)}${l2[13] === '1' ? '7' : '1'}${l2.slice(14)}`; // a birth-date digit
    expect(parseMrz([l1, misread], NOW)).toBeNull();
    expect(parseMrz(['garbage', 'lines'], NOW)).toBeNull();
  });

  it('finds the zone in noisy OCR text', () => {
    const [l1, l2] = composeTd3(person);
    const text = `REPUBLIC OF EXAMPLE\nPASSPORT\n${l1.replace(/</g, '«').slice(0, 20)} ${l1.slice(20)}\n ${l2.toLowerCase()} \n`;
    expect(findMrzLines(text)).toEqual([l1, l2]);
    expect(cleanMrzLine(' p<esp martinez ')).toBe('P<ESPMARTINEZ');
  });

  it('turns YYMMDD into ISO dates with the right century', () => {
    expect(mrzDate('900228', 'birth', NOW)).toBe('1990-02-28');
    expect(mrzDate('050101', 'birth', NOW)).toBe('2005-01-01');
    expect(mrzDate('310514', 'expiry', NOW)).toBe('2031-05-14');
    expect(mrzDate('991231', 'expiry', NOW)).toBe('1999-12-31');
    expect(mrzDate('900230', 'birth', NOW)).toBeNull();
  });
});

describe('name match', () => {
  it('normalises case, accents and special letters', () => {
    expect(normalizeName('  Zoë  Ünal-Çelik ')).toBe('ZOE UNAL CELIK');
    expect(normalizeName('Łukasz Strauß')).toBe('LUKASZ STRAUSS');
    expect(icaoTransliteration('Jürgen Müller')).toBe('JUERGEN MUELLER');
  });

  it.each([
    ['identical', 'Ana Lucía Martínez García', 'ANA LUCIA MARTINEZ GARCIA', 1],
    ['case and accents', 'ana lucia martinez garcia', 'Ana Lucía Martínez García', 1],
    ['surname first', 'Martínez García Ana Lucía', 'ANA LUCIA MARTINEZ GARCIA', 1],
    ['MRZ transliteration', 'Jürgen Müller', 'JUERGEN MUELLER', 1],
    ['MRZ without transliteration', 'Jürgen Müller', 'JURGEN MULLER', 1],
  ])('%s scores %d', (_label, typed, extracted, expected) => {
    expect(nameMatchScore(typed, extracted)).toBe(expected);
  });

  it('tolerates a missing middle name and MRZ truncation, with a small cost', () => {
    const missingMiddle = nameMatchScore('Ana Martínez', 'ANA LUCIA MARTINEZ');
    expect(missingMiddle).toBeGreaterThanOrEqual(0.85);
    expect(missingMiddle).toBeLessThan(1);
    expect(nameMatchScore('Alexandrina Wolkenstein-Rodenegg', 'ALEXANDRINA WOLKENSTEIN RODEN')).toBeGreaterThanOrEqual(0.9);
    expect(nameMatchScore('Jon Smith', 'JOHN SMITH')).toBeGreaterThan(0.9);
  });

  it('scores different people low', () => {
    expect(nameMatchScore('Grace Hopper', 'ANA LUCIA MARTINEZ GARCIA')).toBeLessThan(0.6);
    expect(nameMatchScore('Eileen Collins', 'GRACE BREWSTER HOPPER')).toBeLessThan(0.6);
    expect(nameMatchScore('', 'ANA')).toBe(0);
  });

  it('Jaro-Winkler reference values', () => {
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('DIXON', 'DICKSONX')).toBeCloseTo(0.813, 3);
  });
});

describe('findMrzLines with dropped fillers', () => {
  it('pads a line whose trailing < fillers the OCR dropped, but not one missing check digits', () => {
    const [l1, l2] = composeTd3({ issuingState: 'D', surname: 'Mustermann', givenNames: 'Erika', documentNumber: 'C01X00T47', nationality: 'D', birthDate: '830812', sex: 'F', expiryDate: '270228' });
    expect(l1.endsWith('<'.repeat(10))).toBe(true);
    expect(findMrzLines(`${l1.slice(0, -10)}\n${l2}`)).toEqual([l1, l2]);
    expect(findMrzLines(`${l1}\n${l2.slice(0, 30)}`)).toBeNull();
  });
});

describe('name in free text', async () => {
  const { nameInTextScore } = await import('../../src/pipeline/name-match.js');
  it('finds the name wherever the layout puts it; another name scores low', () => {
    const text = 'PASSPORT\nSurname / Apellidos MARTÍNEZ GARCÍA\nGiven names\nANA LUCÍA Nationality ESP\n';
    expect(nameInTextScore('Ana Lucía Martínez García', text)).toBe(1);
    expect(nameInTextScore('Grace Hopper', text)).toBeLessThan(0.6);
    expect(nameInTextScore('Ana', '')).toBe(0);
  });
});

describe('init fields steer parsing', async () => {
  const { fieldsFromText, mrzSides } = await import('../../src/pipeline/vision-pipeline.js');
  const now = new Date('2026-11-21T00:00:00Z');
  it('country: dates are read day first, or month first where the country writes them so', () => {
    const text = 'DRIVER LICENSE\nDOB 02/03/1990\nEXP 04/05/2031\nDL X1234567';
    expect(fieldsFromText(text, now, 'ES')).toMatchObject({ dateOfBirth: '1990-03-02', expiryDate: '2031-05-04', documentNumber: 'X1234567' });
    expect(fieldsFromText(text, now, 'US')).toMatchObject({ dateOfBirth: '1990-02-03', expiryDate: '2031-04-05' });
    expect(fieldsFromText('BORN 31 02 1990', now, null).dateOfBirth).toBeNull();
  });
  it('documentType: where the MRZ is looked for first', () => {
    const front = Buffer.from('front');
    const back = Buffer.from('back');
    expect(mrzSides('passport', { docFront: front, docBack: back })).toEqual([front]);
    expect(mrzSides('national_id', { docFront: front, docBack: back })).toEqual([back, front]);
    expect(mrzSides('dni', { docFront: front, docBack: back })).toEqual([back, front]);
    expect(mrzSides(null, { docFront: front, docBack: back })).toEqual([front, back]);
    expect(mrzSides('national_id', { docFront: front, docBack: null })).toEqual([front]);
  });
});
