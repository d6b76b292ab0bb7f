import { describe, expect, it } from 'vitest';
import { acceptRate, auc, lineAtFar, rocPoints } from '../../src/faces/roc.js';

describe('lineAtFar', () => {
  const impostor = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
  it('keeps every impostor out when the target allows less than one', () => {
    const line = lineAtFar(impostor, 0.05);
    expect(line).toBeGreaterThan(0.95);
    expect(acceptRate(impostor, line)).toBe(0);
  });
  it('lets through exactly floor(far * n) impostors', () => {
    const line = lineAtFar(impostor, 0.2);
    expect(impostor.filter((s) => s >= line)).toEqual([0.9, 0.95]);
  });
  it('refuses an empty impostor list', () => expect(() => lineAtFar([], 0.01)).toThrow());
});

describe('rocPoints and auc', () => {
  it('reads GAR at each target FAR', () => {
    const pts = rocPoints({ genuine: [0.5, 0.7, 0.92, 0.99], impostor: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95] }, [0.1, 0.001]);
    expect(pts[0]!.gar).toBe(0.5); // line just above 0.9: 0.92 and 0.99 pass
    expect(pts[0]!.impostorsAccepted).toBe(1);
    expect(pts[1]!.gar).toBe(0.25);
    expect(pts[1]!.impostorsAccepted).toBe(0);
  });
  it('is 1 when every genuine pair outscores every impostor, 0.5 for ties', () => {
    expect(auc({ genuine: [0.8, 0.9], impostor: [0.1, 0.7] })).toBe(1);
    expect(auc({ genuine: [0.5], impostor: [0.5] })).toBe(0.5);
  });
});
