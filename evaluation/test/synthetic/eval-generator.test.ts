import { parse } from 'mrz';
import { describe, expect, it } from 'vitest';
import { CLASSES, CLASS_NAMES, caseClasses, SPLIT_ROUNDS, stratifiedIndexes } from '@service/fixtures/eval-set';
import { checkDigit, td1, td2, td3 } from '@service/fixtures/mrz-lines';
import { icaoName, typedName } from '@service/fixtures/names';
import { Rng } from '@service/fixtures/random';
import { formatReport, isCorrect, scoreSplit } from '../../src/synthetic/scoring.js';

describe('the evaluation set generator', () => {
  it('has at least 300 cases per split over every class, in a different order per split', () => {
    for (const split of ['dev', 'heldout'] as const) {
      const classes = caseClasses(split);
      expect(classes.length).toBeGreaterThanOrEqual(300);
      for (const c of CLASS_NAMES) expect(classes.filter((x) => x === c).length).toBe(SPLIT_ROUNDS[split] * CLASSES[c].count);
    }
    expect(caseClasses('dev')).toEqual(caseClasses('dev'));
    expect(caseClasses('dev')).not.toEqual(caseClasses('heldout'));
    expect(stratifiedIndexes('dev', 1)).toHaveLength(CLASS_NAMES.length);
    // Dev's second round comes after its first, whose order is as it was.
    const total = CLASS_NAMES.reduce((n, c) => n + CLASSES[c].count, 0);
    expect(caseClasses('dev').length).toBe(2 * total);
    const fewest = Math.min(...CLASS_NAMES.map((c) => CLASSES[c].count));
    expect(stratifiedIndexes('dev', fewest).every((i) => i < total)).toBe(true);
  });

  it('transliterates names the ICAO 9303 way', () => {
    expect(icaoName('Ødegård')).toBe('OEDEGAARD');
    expect(icaoName('Müller')).toBe('MUELLER');
    expect(icaoName("O'Connor")).toBe('OCONNOR');
    expect(icaoName('Weiß')).toBe('WEISS');
    expect(icaoName('Núñez')).toBe('NUNEZ');
    expect(icaoName('Łukasiewicz')).toBe('LUKASIEWICZ');
  });

  it('types names the way genuine users do', () => {
    const name = { surname: 'Ødegård', given: ['Ingrid', 'Sofie'] };
    const rng = new Rng(1);
    expect(typedName(rng, name, 'no_accents')).toBe('Ingrid Sofie Odegard');
    expect(typedName(rng, name, 'icao_transliterated')).toBe('Ingrid Sofie Oedegaard');
    expect(typedName(rng, name, 'middle_omitted')).toBe('Ingrid Ødegård');
    expect(typedName(rng, name, 'middle_initial')).toBe('Ingrid S. Ødegård');
    expect(typedName(rng, name, 'surname_first_comma')).toBe('Ødegård, Ingrid Sofie');
  });

  it('composes MRZs that an independent parser accepts, every check digit valid', () => {
    // ICAO 9303 Part 3 worked examples.
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    const d = {
      code: 'P<',
      state: 'NOR',
      surname: 'Ødegård',
      given: ['Ingrid', 'Sofie'],
      number: 'L898902C3',
      nationality: 'NOR',
      birth: '1974-08-12',
      sex: 'F' as const,
      expiry: '2031-04-15',
    };
    for (const lines of [td3(d), td2({ ...d, code: 'ID' }), td1({ ...d, code: 'ID' })]) {
      const r = parse(lines);
      expect(r.valid, lines.join('\n')).toBe(true);
      expect(r.fields.lastName).toBe('OEDEGAARD');
      expect(r.fields.firstName).toBe('INGRID SOFIE');
    }
    expect(td3(d)[0]).toBe('P<NOROEDEGAARD<<INGRID<SOFIE'.padEnd(44, '<'));
  });

  it('scores a negative as caught only with its reason, and checks the targets', () => {
    expect(isCorrect({ cls: 'other_surname', verdict: 'rejected', reasons: ['name_mismatch'] })).toBe(true);
    expect(isCorrect({ cls: 'other_surname', verdict: 'review', reasons: ['face_mismatch'] })).toBe(false);
    expect(isCorrect({ cls: 'genuine_passport_td3', verdict: 'approved', reasons: [] })).toBe(true);
    expect(isCorrect({ cls: 'screen_photo', verdict: 'review', reasons: ['blurry_image'] })).toBe(true);
    const report = scoreSplit(
      'heldout',
      [
        { id: 'a', cls: 'genuine_passport_td3', verdict: 'approved', reasons: [], scores: null, ms: 1 },
        { id: 'b', cls: 'other_face', verdict: 'approved', reasons: [], scores: null, ms: 1 },
      ],
      null,
    );
    expect(report.targets.find((t) => t.what === '0 negatives approved')?.met).toBe(false);
    expect(report.wrong.map((w) => w.id)).toEqual(['b']);
  });

  it('prints throughput against both bounds: stage costs (the target) and measured CPU (for information)', () => {
    const timing = {
      sequential: { p50: 900, p95: 1400, n: 2 },
      inFlight: { p50: 1800, p95: 2500, n: 2, concurrency: 4 },
      throughputPerSecond: 0.5,
      stageMs: { ocr: 1000, faces: 1000 },
      boundPerSecond: 1,
      cores: 2,
      cpuMsPerVerification: 2500,
    };
    const results = [{ id: 'a', cls: 'genuine_passport_td3' as const, verdict: 'approved' as const, reasons: [], scores: null, ms: 900 }];
    const text = formatReport(scoreSplit('heldout', results, timing));
    // 2 cores x 1000 / 2500 ms = 0.8/s = 48/min; 30/min of it is 62.5%.
    expect(text).toContain(
      'CPU per verification (in process, all its threads, one at a time): 2500 ms -> CPU bound 48/min on 2 cores; throughput 62.5% of it',
    );
    expect(text).toContain('[NOT met] throughput >= 75% of the bound from stage costs: 30/min of 60/min = 50%');
    expect(formatReport(scoreSplit('heldout', results, { ...timing, cpuMsPerVerification: undefined }))).not.toContain(
      'CPU per verification',
    );
  });
});
