import { createHash } from 'node:crypto';
import type { Manifest, Person, Photo } from './manifest.js';

export type Split = 'dev' | 'test';

/**
 * People, never photos, are split: a person's sha256("faces-split-v1:" + id) first byte below 128
 * is dev, else test. Fixed once; the rule never looks at scores.
 */
export function splitOf(personId: string): Split {
  return createHash('sha256').update(`faces-split-v1:${personId}`).digest()[0]! < 128 ? 'dev' : 'test';
}

export interface Pair {
  /** The photo printed on the document. */
  document: string;
  /** The photo taken as the selfie. */
  selfie: string;
  kind: 'cross_photo' | 'same_photo' | 'impostor';
  split: Split;
}

/**
 * Genuine pairs: for a person with photos A and B from different sessions, A on the document and
 * B as the selfie, and the other way round (cross_photo); each photo against itself (same_photo,
 * the old sets' kind). Impostor pairs are hard: same sex, birth years at most `maxYears` apart,
 * both people in the same split; every such ordered pair of photos, document from one, selfie
 * from the other.
 */
export function makePairs(m: Manifest, opts: { maxYears?: number } = {}): Pair[] {
  const maxYears = opts.maxYears ?? 5;
  const byPerson = new Map<string, Photo[]>();
  for (const p of m.photos) byPerson.set(p.person, [...(byPerson.get(p.person) ?? []), p]);
  const pairs: Pair[] = [];
  for (const person of m.people) {
    const photos = byPerson.get(person.id) ?? [];
    const split = splitOf(person.id);
    for (const a of photos) {
      pairs.push({ document: a.id, selfie: a.id, kind: 'same_photo', split });
      for (const b of photos) if (a !== b) pairs.push({ document: a.id, selfie: b.id, kind: 'cross_photo', split });
    }
  }
  const people = m.people.filter((p) => byPerson.has(p.id));
  for (const a of people)
    for (const b of people) {
      if (a === b || !hardImpostor(a, b, maxYears) || splitOf(a.id) !== splitOf(b.id)) continue;
      for (const pa of byPerson.get(a.id)!)
        for (const pb of byPerson.get(b.id)!) pairs.push({ document: pa.id, selfie: pb.id, kind: 'impostor', split: splitOf(a.id) });
    }
  return pairs;
}

export const hardImpostor = (a: Person, b: Person, maxYears: number) => a.sex === b.sex && Math.abs(a.birthYear - b.birthYear) <= maxYears;
