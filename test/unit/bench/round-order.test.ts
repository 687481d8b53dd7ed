import { describe, expect, it } from 'vitest';
import { roundOrder, sliceOrder, splitGroup, type BenchTarget } from '../../bench/load-client.js';

const target = (name: string): BenchTarget => ({
  name,
  label: name,
  url: `http://127.0.0.1/${name}`,
  method: 'GET',
  headers: {},
});
const targets = ['hand', 'facade', 'api', 'graphql', 'diag'].map(target);
const names = (list: BenchTarget[]) => list.map((t) => t.name);

describe('bench round order', () => {
  it('rotates the start of the targets outside the group by one per round', () => {
    expect(names(roundOrder(targets, 0))).toEqual(['hand', 'facade', 'api', 'graphql', 'diag']);
    expect(names(roundOrder(targets, 1))).toEqual(['facade', 'api', 'graphql', 'diag', 'hand']);
    expect(names(roundOrder(targets, 4))).toEqual(['diag', 'hand', 'facade', 'api', 'graphql']);
  });

  it('splits the group (in its order) from the others, so that every target is measured once per round', () => {
    const { sides, rest } = splitGroup(targets, ['graphql', 'hand']);
    expect(names(sides)).toEqual(['graphql', 'hand']);
    for (let round = 0; round < 7; round++)
      expect([...names(sides), ...names(roundOrder(rest, round))].sort()).toEqual(names(targets).sort());
  });

  it('refuses a group that does not name different targets', () => {
    expect(() => splitGroup(targets, ['hand', 'missing'])).toThrow(/different targets/);
    expect(() => splitGroup(targets, ['hand', 'hand'])).toThrow(/different targets/);
  });
});

describe('bench slices', () => {
  it('interleaves forward, backward, forward ... (for two: A B B A ...), mirrored on odd rounds', () => {
    expect(sliceOrder(2, 5, 0)).toEqual([0, 1, 1, 0, 0, 1, 1, 0, 0, 1]);
    expect(sliceOrder(2, 5, 1)).toEqual([1, 0, 0, 1, 1, 0, 0, 1, 1, 0]);
    expect(sliceOrder(3, 3, 0)).toEqual([0, 1, 2, 2, 1, 0, 0, 1, 2]);
    expect(sliceOrder(3, 3, 1)).toEqual([2, 1, 0, 0, 1, 2, 2, 1, 0]);
    // One slice each: a pair back to back, alternating which goes first.
    expect(sliceOrder(2, 1, 0)).toEqual([0, 1]);
    expect(sliceOrder(2, 1, 1)).toEqual([1, 0]);
  });

  it('measures every target the same number of times, at the same mean position over two rounds', () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const sides of [2, 3, 4]) {
      for (const slices of [1, 2, 5, 8]) {
        const positions = (side: number) =>
          [0, 1].flatMap((round) => sliceOrder(sides, slices, round).flatMap((s, i) => (s === side ? [i] : [])));
        for (let side = 0; side < sides; side++) {
          for (const round of [0, 1])
            expect(sliceOrder(sides, slices, round).filter((s) => s === side)).toHaveLength(slices);
          // A drift linear in time weighs on every target alike.
          expect(mean(positions(side))).toBeCloseTo(mean(positions(0)), 10);
        }
      }
    }
  });
});
