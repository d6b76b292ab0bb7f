import { describe, expect, it } from 'vitest';
import { caseProblems, loadManifest, manifestProblems, parseManifest, type RealDocumentCase } from '../../src/real-documents/manifest.js';
import { splitOf } from '../../src/real-documents/split.js';

const image = {
  file: 'x-front.png',
  repository: 'owner/name',
  commit: 'a'.repeat(40),
  path: 'docs/x.png',
  sha256: 'b'.repeat(64),
  bytes: 10,
  widthPx: 400,
  heightPx: 300,
  repositoryLicence: 'MIT',
};

const passport = (over: Partial<RealDocumentCase> = {}): RealDocumentCase => ({
  id: 'uto-passport',
  group: 'uto-passport',
  split: 'dev',
  layout: 'TD3',
  country: 'UTO',
  documentType: 'passport',
  side: 'data-page',
  capture: 'scan',
  legible: true,
  truth: {
    fullName: 'ANNA MARIA ERIKSSON',
    documentNumber: 'L898902C3',
    dateOfBirth: '1974-08-12',
    expiryDate: '2012-04-15',
    nationality: 'UTO',
  },
  mrz: ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'],
  images: { front: image },
  ...over,
});

describe('caseProblems', () => {
  it('finds none in a case that agrees with its zone', () => {
    expect(caseProblems(passport())).toEqual([]);
  });

  it('catches a truth the zone does not bear out', () => {
    const c = passport({ truth: { ...passport().truth, dateOfBirth: '1974-08-13', documentNumber: 'L898902C' } });
    expect(caseProblems(c)).toEqual(["zone number L898902C3 is not the truth's", "zone birth date 740812 is not the truth's"]);
  });

  it('takes an accepted alternative, and a zone that differs from the print when declared', () => {
    const c = passport({ truth: { ...passport().truth, documentNumber: '123' }, accept: { documentNumber: ['L898902C3'] } });
    expect(caseProblems(c)).toEqual([]);
    expect(caseProblems(passport({ truth: { ...passport().truth, expiryDate: '2020-01-01' }, zoneDiffersFromPrint: true }))).toEqual([]);
  });

  it('wants a failing check digit declared, and a declared one to fail', () => {
    const wrong = passport({ mrz: [passport().mrz![0]!, 'L898902C37UTO7408122F1204159ZE184226B<<<<<10'] });
    expect(caseProblems(wrong)).toContain('check digit of documentNumber fails and is not declared bad');
    expect(caseProblems({ ...wrong, badCheckDigits: ['documentNumber', 'composite'] })).toEqual([]);
    expect(caseProblems(passport({ badCheckDigits: ['expiryDate'] }))).toEqual(['check digit of expiryDate holds but is declared bad']);
  });

  it('wants zone lines exactly where the layout has a zone', () => {
    expect(caseProblems(passport({ mrz: undefined }))).toEqual(['a zone layout without its zone lines']);
    expect(caseProblems(passport({ layout: 'US-DL' }))).toEqual(['zone lines on a US-DL case']);
  });
});

describe('manifestProblems', () => {
  it('catches a duplicate id and a split the rule does not give', () => {
    const a = passport();
    const b = passport({ id: 'uto-passport', group: 'other', split: 'dev' });
    const problems = manifestProblems({ description: '', schemaVersion: 1, cases: [a, b] });
    expect(problems).toContain('uto-passport: duplicate id');
    expect(problems.filter((p) => p.includes('the rule gives test'))).toHaveLength(1);
  });

  it('refuses a malformed case before checking it', () => {
    expect(() => parseManifest({ description: '', schemaVersion: 1, cases: [{ ...passport(), layout: 'TD4' }] })).toThrow();
  });
});

describe('splitOf', () => {
  it('keeps a group whole, puts about a third of each layout in test, and a lone group in dev', () => {
    const cases = [
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((g) => ({ group: g, layout: 'TD3' })),
      { group: 'a', layout: 'TD3' },
      { group: 'z', layout: 'TD2' },
    ];
    const s = splitOf(cases);
    expect([...'abcdef'].filter((g) => s.get(g) === 'test')).toHaveLength(2);
    expect(s.get('z')).toBe('dev');
  });
});

describe('the committed manifest', () => {
  it('validates, with every layout present and most of them in both splits', () => {
    const m = loadManifest();
    expect(m.cases.length).toBeGreaterThanOrEqual(60);
    const layouts = new Set(m.cases.map((c) => c.layout));
    expect(layouts.size).toBe(9);
    expect(new Set(m.cases.map((c) => c.country)).size).toBeGreaterThanOrEqual(15);
    const both = [...layouts].filter((l) => new Set(m.cases.filter((c) => c.layout === l).map((c) => c.split)).size === 2);
    expect(both.length).toBeGreaterThanOrEqual(6);
  });
});
