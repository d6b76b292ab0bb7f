import { describe, expect, it } from 'vitest';
import { angleBetween, convex, meet, segmentSupport, signedDistance } from '../src/edge-lines.js';

const deg = (d: number) => (d * Math.PI) / 180;

describe('edge lines', () => {
  it('angleBetween is the smaller angle either way round', () => {
    expect(angleBetween(deg(350), deg(10))).toBeCloseTo(deg(20));
    expect(angleBetween(deg(10), deg(190))).toBeCloseTo(deg(180));
  });

  it('signedDistance is positive on the side the normal points to', () => {
    const x10 = { angle: 0, rho: 10 };
    expect(signedDistance(x10, [15, 3])).toBeCloseTo(5);
    expect(signedDistance(x10, [4, 3])).toBeCloseTo(-6);
  });

  it('meet finds where two lines cross, and refuses nearly parallel ones', () => {
    const p = meet({ angle: 0, rho: 10 }, { angle: deg(90), rho: 20 }, 0.2)!;
    expect(p[0]).toBeCloseTo(10);
    expect(p[1]).toBeCloseTo(20);
    expect(meet({ angle: 0, rho: 10 }, { angle: deg(5), rho: 20 }, 0.2)).toBeNull();
  });

  it('convex tells a quadrilateral from a bow tie', () => {
    expect(
      convex([
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
      ]),
    ).toBe(true);
    expect(
      convex([
        [0, 0],
        [10, 10],
        [10, 0],
        [0, 10],
      ]),
    ).toBe(false);
  });

  it('segmentSupport counts covered pixels along the segment, in the line direction bins only', () => {
    // Vertical line x = 5 (normal along x), edge pixels at x = 5 for y = 0..9 in the 0-degree bin.
    const edges: number[][] = Array.from({ length: 180 }, () => []);
    for (let y = 0; y < 10; y++) edges[0]!.push(5, y);
    const line = { angle: 0, rho: 5 };
    expect(segmentSupport(edges, line, [5, 0], [5, 19], { angleStep: 2, spread: 1 })).toBe(10);
    // The same pixels filed under a direction far from the line's: no support.
    const elsewhere: number[][] = Array.from({ length: 180 }, () => []);
    elsewhere[45] = edges[0]!;
    expect(segmentSupport(elsewhere, line, [5, 0], [5, 19], { angleStep: 2, spread: 1 })).toBe(0);
  });
});
