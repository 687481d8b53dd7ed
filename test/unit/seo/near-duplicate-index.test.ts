import { describe, expect, it } from 'vitest';
import { findNearDuplicates } from '../../../src/seo/checks/index.js';
import { hammingDistance } from '../../../src/seo/page/index.js';

/** Deterministic generator, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const hex = (high: number, low: number) =>
  (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');

/** Hashes in clusters (a template with a few bits flipped) mixed with unrelated ones. */
function sample(rand: () => number, count: number, templates: number): string[] {
  const bases = Array.from({ length: templates }, () => [Math.floor(rand() * 2 ** 32), Math.floor(rand() * 2 ** 32)]);
  return Array.from({ length: count }, () => {
    let [high, low] =
      rand() < 0.7
        ? bases[Math.floor(rand() * bases.length)]
        : [Math.floor(rand() * 2 ** 32), Math.floor(rand() * 2 ** 32)];
    for (let flips = Math.floor(rand() * 6); flips > 0; flips--) {
      const bit = Math.floor(rand() * 64);
      if (bit < 32) high ^= 1 << bit;
      else low ^= 1 << (bit - 32);
    }
    return hex(high, low);
  });
}

describe('findNearDuplicates', () => {
  it(
    'with an unlimited budget, finds a partner exactly for the hashes that have a neighbour within the ' +
      'distance (brute force agrees)',
    () => {
      const rand = lcg(20_261_121);
      for (let trial = 0; trial < 60; trial++) {
        const hashes = sample(rand, 1 + Math.floor(rand() * 300), 1 + Math.floor(rand() * 12));
        const maxDistance = Math.floor(rand() * 4);
        const matches = findNearDuplicates(hashes, { maxDistance, maxComparisons: Number.MAX_SAFE_INTEGER });
        expect(matches).toHaveLength(hashes.length);
        hashes.forEach((hash, i) => {
          const hasNeighbour = hashes.some((other, j) => j !== i && hammingDistance(hash, other) <= maxDistance);
          const match = matches[i];
          expect(match !== null).toBe(hasNeighbour);
          if (match) {
            expect(match.partner).not.toBe(i);
            expect(match.distance).toBe(hammingDistance(hash, hashes[match.partner]));
            expect(match.distance).toBeLessThanOrEqual(maxDistance);
          }
        });
      }
    },
  );

  it('stops at the comparison budget and reports what it found until then', () => {
    const hashes = Array.from({ length: 50 }, (_, i) => hex(0x12345678, i));
    expect(findNearDuplicates(hashes, { maxDistance: 3, maxComparisons: 0 }).every((m) => m === null)).toBe(true);
    const partial = findNearDuplicates(hashes, { maxDistance: 3, maxComparisons: 1 });
    expect(partial.filter((m) => m !== null)).toHaveLength(2);
    expect(partial[0]).toEqual({ partner: 1, distance: 1 });
    expect(partial[1]).toEqual({ partner: 0, distance: 1 });
  });

  it('handles a large cluster of identical pages in linear comparisons', () => {
    const hashes = Array.from({ length: 5_000 }, () => 'a1b2c3d4e5f60718');
    // Each newcomer compares once with the first member of a band and stops there: 4,999 comparisons.
    const matches = findNearDuplicates(hashes, { maxDistance: 3, maxComparisons: 5_000 });
    expect(matches.every((m) => m !== null && m.distance === 0)).toBe(true);
  });

  it('refuses distances the four 16-bit bands cannot guarantee', () => {
    expect(() => findNearDuplicates([], { maxDistance: 4, maxComparisons: 10 })).toThrow(RangeError);
  });
});
