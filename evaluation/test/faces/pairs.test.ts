import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/faces/manifest.js';
import { hardImpostor, makePairs, splitOf } from '../../src/faces/pairs.js';

const photo = (id: string, person: string) => ({
  id,
  person,
  repo: 'r/r',
  commit: 'c',
  path: id,
  sha256: '',
  bytes: 0,
  ext: 'jpg',
  licence: '',
  licenceVerified: true,
  year: null,
});

describe('splitOf', () => {
  it('splits people by a fixed hash, about half each way', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `p${i}`);
    const dev = ids.filter((id) => splitOf(id) === 'dev').length;
    expect(dev).toBeGreaterThan(150);
    expect(dev).toBeLessThan(250);
    expect(splitOf('p1')).toBe(splitOf('p1'));
  });
});

describe('makePairs', () => {
  // Four people all in one split, so that the split never hides an impostor pair here.
  const all = Array.from({ length: 60 }, (_, i) => `x${i}`);
  const [a, b, c, d] = all.filter((id) => splitOf(id) === 'dev');
  const m: Manifest = {
    version: 1,
    description: '',
    people: [
      { id: a!, name: 'A', sex: 'F', birthYear: 1960, source: '' },
      { id: b!, name: 'B', sex: 'F', birthYear: 1964, source: '' },
      { id: c!, name: 'C', sex: 'F', birthYear: 1980, source: '' },
      { id: d!, name: 'D', sex: 'M', birthYear: 1961, source: '' },
    ],
    photos: [photo('a1', a!), photo('a2', a!), photo('b1', b!), photo('c1', c!), photo('d1', d!)],
  };
  const pairs = makePairs(m, { maxYears: 5 });
  it("pairs a person's photos both ways, and each photo with itself", () => {
    expect(
      pairs
        .filter((p) => p.kind === 'cross_photo')
        .map((p) => `${p.document}>${p.selfie}`)
        .sort(),
    ).toEqual(['a1>a2', 'a2>a1']);
    expect(pairs.filter((p) => p.kind === 'same_photo')).toHaveLength(5);
  });
  it('takes impostors of the same sex within the birth-year window only', () => {
    const imp = pairs
      .filter((p) => p.kind === 'impostor')
      .map((p) => `${p.document}>${p.selfie}`)
      .sort();
    expect(imp).toEqual(['a1>b1', 'a2>b1', 'b1>a1', 'b1>a2']);
    expect(hardImpostor(m.people[0]!, m.people[3]!, 5)).toBe(false);
  });
});
