import { AUDIT_ACTIONS, SCORE_NAMES, VERDICT_REASONS } from '@service/contract';
import { describe, expect, it } from 'vitest';
import { actionInWords, duration, percent, reasonInWords, reasonLabel, SCORE_LABELS, when } from '../src/words.js';

describe('plain words for reviewers', () => {
  it('every verdict reason of the contract has a sentence, unknown codes stay readable', () => {
    for (const r of VERDICT_REASONS) expect(reasonInWords(r)).toMatch(/^[A-Z].*\.$/);
    for (const r of ['image_too_dark', 'glare', 'low_resolution', 'document_on_screen']) expect(reasonInWords(r)).not.toBe(r);
    expect(reasonInWords('some_new_reason')).toBe('some new reason');
  });
  it('every score and audit action has a label', () => {
    for (const s of SCORE_NAMES) expect(SCORE_LABELS[s]).toBeTruthy();
    for (const a of AUDIT_ACTIONS) expect(actionInWords(a)).not.toBe(a);
  });
  it('formats scores and times', () => {
    expect(percent(0.876)).toBe('88 %');
    expect(percent(null)).toBe('not computed');
    expect(when('2026-01-02T03:04:05.678Z')).toBe('2026-01-02 03:04:05 UTC');
    expect(when(null)).toBe('-');
  });
  it('names a reason shortly for a chart, and a duration as a person reads it', () => {
    expect(reasonLabel('name_mismatch')).toBe('Name mismatch');
    expect(duration(null)).toBe('-');
    expect(duration(0.043)).toBe('43 ms');
    expect(duration(12.44)).toBe('12.4 s');
    expect(duration(185)).toBe('3 min 5 s');
    expect(duration(2 * 3600 + 600)).toBe('2 h 10 min');
    expect(duration(3 * 86400 + 4 * 3600)).toBe('3 d 4 h');
  });
});
