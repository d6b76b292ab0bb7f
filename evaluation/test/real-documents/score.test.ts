import { describe, expect, it } from 'vitest';
import type { RealDocumentCase } from '../../src/real-documents/manifest.js';
import { matches, normaliseName } from '../../src/real-documents/normalise.js';
import { scoreCase, summarise, type ReaderResult } from '../../src/real-documents/score.js';
import { symptom } from '../../src/real-documents/report.js';
import { passportEyeResult } from '../../src/real-documents/run-passporteye.js';

const base = {
  group: 'g',
  split: 'dev',
  country: 'ISL',
  documentType: 'passport',
  side: 'data-page',
  capture: 'scan',
  legible: true,
  images: {
    front: {
      file: 'x.png',
      repository: 'o/n',
      commit: 'a'.repeat(40),
      path: 'x',
      sha256: 'b'.repeat(64),
      bytes: 1,
      widthPx: 1,
      heightPx: 1,
      repositoryLicence: 'MIT',
    },
  },
} as const;

const iceland: RealDocumentCase = {
  ...base,
  id: 'isl',
  layout: 'TD3',
  truth: {
    fullName: 'ÞURÍÐUR ÖSP ÆVARSDÓTTIR',
    documentNumber: 'A2040611',
    dateOfBirth: '1912-12-12',
    expiryDate: '2011-06-29',
    nationality: 'ISL',
  },
};
const licence: RealDocumentCase = {
  ...base,
  id: 'dl',
  layout: 'US-DL',
  country: 'USA',
  documentType: 'drivers_license',
  truth: { fullName: 'CONNOR SAMPLE', documentNumber: 'S99988801', dateOfBirth: '1959-01-12', expiryDate: '2021-01-12', nationality: null },
  accept: { documentNumber: ['S-999-888-01'] },
};

const read = (id: string, fields: Partial<ReaderResult['fields']>, unreadable = false): ReaderResult => ({
  id,
  fields: { fullName: null, documentNumber: null, dateOfBirth: null, expiryDate: null, nationality: null, ...fields },
  unreadable,
  ms: 1,
});

describe('normalisation', () => {
  it('forgives case, accents, transliterated letters, fillers and word order in a name', () => {
    expect(normaliseName('ÆVARSDÓTTIR<<ÞURÍÐUR<ÖSP')).toBe(normaliseName('Thuridur Osp Aevarsdottir'));
    expect(matches('fullName', 'AEVARSDOTTIR THURIDUR', ['ÞURÍÐUR ÖSP ÆVARSDÓTTIR'])).toBe(false);
  });

  it('forgives separators in a number but not a character', () => {
    expect(matches('documentNumber', 's 999 888-01', ['S99988801'])).toBe(true);
    expect(matches('documentNumber', 'S99988807', ['S99988801'])).toBe(false);
  });

  it('never takes a null or empty read as right', () => {
    expect(matches('nationality', null, ['ISL'])).toBe(false);
    expect(matches('nationality', '', [''])).toBe(false);
  });
});

describe('scoreCase and summarise', () => {
  it('scores the core fields together and leaves a null truth unscored', () => {
    const s = scoreCase(
      licence,
      read('dl', { documentNumber: 'S99988801', dateOfBirth: '1959-01-12', expiryDate: '2021-01-12', nationality: 'USA' }),
    );
    expect(s.coreRight).toBe(true);
    expect(s.right.nationality).toBeNull();
    expect(s.right.fullName).toBe(false);
  });

  it('tallies per layout and overall, counting unreadable documents', () => {
    const results = new Map([
      ['isl', read('isl', { documentNumber: 'A2040611', dateOfBirth: '2012-12-12', expiryDate: '2011-06-29' })],
      ['dl', read('dl', {}, true)],
    ]);
    const sum = summarise([iceland, licence], results);
    expect(sum.overall.core).toEqual({ right: 0, scored: 2 });
    expect(sum.overall.fields.documentNumber).toEqual({ right: 1, scored: 2 });
    expect(sum.overall.fields.nationality).toEqual({ right: 0, scored: 1 });
    expect(sum.overall.unreadable).toBe(1);
    expect(sum.byLayout['US-DL']?.cases).toBe(1);
  });

  it('skips an illegible document and fails on a missing result', () => {
    const sum = summarise([{ ...licence, legible: false }], new Map());
    expect(sum.overall.cases).toBe(0);
    expect(() => summarise([licence], new Map())).toThrow(/no result for dl/);
  });

  it('names a century error', () => {
    expect(symptom(iceland, 'dateOfBirth', '2012-12-12')).toBe('century wrong');
    expect(symptom(iceland, 'dateOfBirth', null)).toBe('not read');
  });
});

describe('passportEyeResult', () => {
  it('turns its zone into fields, a birth year never in the future', () => {
    const r = passportEyeResult(
      {
        id: 'x',
        ms: 5,
        found: true,
        number: 'A2040611<',
        date_of_birth: '121212',
        expiration_date: '970801',
        nationality: 'ISL',
        names: 'THURIDUR OESP',
        surname: 'AEVARSDOTTIR',
      },
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(r.fields).toEqual({
      fullName: 'THURIDUR OESP AEVARSDOTTIR',
      documentNumber: 'A2040611',
      dateOfBirth: '2012-12-12',
      expiryDate: '1997-08-01',
      nationality: 'ISL',
    });
    expect(passportEyeResult({ id: 'x', ms: 1, found: true, date_of_birth: '991399' }).fields.dateOfBirth).toBeNull();
    expect(passportEyeResult({ id: 'x', ms: 1, found: false }).unreadable).toBe(true);
  });
});
