import { describe, expect, it } from 'vitest';
import { roundOrder, sliceOrder, type BenchTarget } from '../../bench/load-client.js';

const target = (name: string): BenchTarget => ({ name, label: name, url: `http://127.0.0.1/${name}`, method: 'GET', headers: {} });
const targets = ['hand', 'facade', 'api', 'graphql', 'diag'].map(target);
const names = (round: number, pair?: readonly [string, string]) => roundOrder(targets, round, pair).map((t) => t.name);

describe('bench round order', () => {
  it('without a pair rotates the start by one target per round', () => {
    expect(names(0)).toEqual(['hand', 'facade', 'api', 'graphql', 'diag']);
    expect(names(1)).toEqual(['facade', 'api', 'graphql', 'diag', 'hand']);
    expect(names(4)).toEqual(['diag', 'hand', 'facade', 'api', 'graphql']);
  });

  it('puts the pair back to back first, alternating which of the two leads, and rotates the rest', () => {
    const pair = ['hand', 'facade'] as const;
    expect(names(0, pair)).toEqual(['hand', 'facade', 'api', 'graphql', 'diag']);
    expect(names(1, pair)).toEqual(['facade', 'hand', 'graphql', 'diag', 'api']);
    expect(names(2, pair)).toEqual(['hand', 'facade', 'diag', 'api', 'graphql']);
    const leads = Array.from({ length: 6 }, (_, round) => names(round, pair)[0]);
    expect(leads.filter((n) => n === 'hand')).toHaveLength(3);
    expect(leads.filter((n) => n === 'facade')).toHaveLength(3);
  });

  it('measures every target exactly once per round', () => {
    for (let round = 0; round < 7; round++) {
      expect([...names(round, ['graphql', 'hand'])].sort()).toEqual(targets.map((t) => t.name).sort());
    }
  });

  it('refuses a pair that does not name two different targets', () => {
    expect(() => roundOrder(targets, 0, ['hand', 'missing'])).toThrow(/two different targets/);
    expect(() => roundOrder(targets, 0, ['hand', 'hand'])).toThrow(/two different targets/);
  });
});

describe('bench slices', () => {
  it('interleaves forward, backward, forward ... (for two: A B B A ...), mirrored on odd rounds', () => {
    expect(sliceOrder(2, 5, 0)).toEqual([0, 1, 1, 0, 0, 1, 1, 0, 0, 1]);
    expect(sliceOrder(2, 5, 1)).toEqual([1, 0, 0, 1, 1, 0, 0, 1, 1, 0]);
    expect(sliceOrder(3, 3, 0)).toEqual([0, 1, 2, 2, 1, 0, 0, 1, 2]);
    expect(sliceOrder(3, 3, 1)).toEqual([2, 1, 0, 0, 1, 2, 2, 1, 0]);
    expect(sliceOrder(2, 1, 0)).toEqual([0, 1]);
  });

  it('measures every target the same number of times, at the same mean position over two rounds', () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const sides of [2, 3, 4]) {
      for (const slices of [1, 2, 5, 8]) {
        const positions = (side: number) => [0, 1].flatMap((round) => sliceOrder(sides, slices, round).flatMap((s, i) => (s === side ? [i] : [])));
        for (let side = 0; side < sides; side++) {
          for (const round of [0, 1]) expect(sliceOrder(sides, slices, round).filter((s) => s === side)).toHaveLength(slices);
          // A drift linear in time weighs on every target alike.
          expect(mean(positions(side))).toBeCloseTo(mean(positions(0)), 10);
        }
      }
    }
  });
});
