/**
 * A small seeded random source (mulberry32) so that every evaluation case is a pure function of
 * (split seed, case index): the same case comes out byte for byte on every machine, and any one
 * case can be built without building the others.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A child source for one purpose, independent of how much the parent was used. */
  static of(...parts: (string | number)[]): Rng {
    let h = 2166136261;
    for (const c of parts.join('/')) {
      h ^= c.charCodeAt(0);
      h = Math.imul(h, 16777619);
    }
    return new Rng(h >>> 0);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  int(lo: number, hi: number): number {
    return Math.floor(this.range(lo, hi + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }

  /** Weighted choice: [[value, weight], ...]. */
  weighted<T>(xs: readonly (readonly [T, number])[]): T {
    const total = xs.reduce((a, [, w]) => a + w, 0);
    let r = this.next() * total;
    for (const [v, w] of xs) if ((r -= w) < 0) return v;
    return xs[xs.length - 1]![0];
  }

  /** Standard normal (Box-Muller). */
  gauss(): number {
    const u = Math.max(1e-12, this.next());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
