import { describe, expect, it } from 'vitest';
import { checkDigit, zoneFields } from '../../src/real-documents/zone-fields.js';

// ICAO 9303's own examples.
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

describe('checkDigit', () => {
  it('weighs 7-3-1 with letters from 10 and fillers 0', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('<<<<<<')).toBe('0');
  });
});

describe('zoneFields', () => {
  it('reads a passport zone and finds every check digit holding', () => {
    const z = zoneFields('TD3', TD3);
    expect(z).toMatchObject({ documentNumber: 'L898902C3', dateOfBirth: '740812', expiryDate: '120415', nationality: 'UTO' });
    expect(z.checks.every((c) => c.valid)).toBe(true);
  });

  it('names the check digit that fails', () => {
    const z = zoneFields('TD3', [TD3[0]!, TD3[1]!.replace('7408122', '7408123')]);
    expect(z.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['dateOfBirth', 'composite']);
  });

  it('reads a card zone, and a number running on into the optional data', () => {
    expect(zoneFields('TD1', TD1)).toMatchObject({ documentNumber: 'D23145890', nationality: 'UTO' });
    const long = zoneFields('TD1', ['I<UTOD23145890<7349<<<<<<<<<<<', TD1[1]!, TD1[2]!]);
    expect(long.documentNumber).toBe('D23145890734');
    expect(long.checks.find((c) => c.name === 'documentNumber')?.valid).toBe(true);
  });

  it('reads the older French card, which has no expiry', () => {
    const z = zoneFields('FR-ID-2x36', ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '9409923102854CORINNE<<<<<<<6512068F4']);
    expect(z).toMatchObject({ documentNumber: '940992310285', dateOfBirth: '651206', expiryDate: null });
    expect(z.checks.every((c) => c.valid)).toBe(true);
  });

  it('reads a visa with no composite check digit', () => {
    const z = zoneFields('MRV-B', ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<']);
    expect(z.checks.map((c) => c.name)).toEqual(['documentNumber', 'dateOfBirth', 'expiryDate']);
  });

  it('refuses lines that do not fit the layout', () => {
    expect(() => zoneFields('TD3', [TD3[0]!, TD3[1]!.slice(1)])).toThrow(/2 lines of 44/);
    expect(() => zoneFields('US-DL', TD3)).toThrow(/no zone/);
  });
});
