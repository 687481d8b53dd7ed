import { describe, expect, it } from 'vitest';
import { keywordChange, type KeywordChangeInput } from '../../../src/keywords/keyword.service.js';

const at = new Date('2026-11-20T06:00:00Z');
const k = (
  position: number | null,
  previousPosition: number | null,
  rankedChecks: number,
  checks: 0 | 1 | 2 = 2,
): KeywordChangeInput => ({
  position,
  previousPosition,
  previousChecked: checks === 2 ? at : null,
  lastChecked: checks >= 1 ? at : null,
  rankedChecks,
});

describe('a keyword’s change between its two latest successful checks', () => {
  it.each([
    ['never checked', k(null, null, 0, 0), { kind: 'NONE', delta: null }],
    ['found at both checks, up', k(3, 7, 2), { kind: 'MOVED', delta: 4 }],
    ['found at both checks, down', k(9, 4, 5), { kind: 'MOVED', delta: -5 }],
    ['found at both checks, same place', k(4, 4, 2), { kind: 'MOVED', delta: 0 }],
    ['first check, found: the first time it ranks', k(5, null, 1, 1), { kind: 'NEW', delta: null }],
    ['not found before, found now, never found earlier', k(5, null, 1), { kind: 'NEW', delta: null }],
    ['ranked, dropped out a day, came back', k(6, null, 2), { kind: 'BACK', delta: null }],
    ['ranked long ago, out for weeks, back', k(40, null, 9), { kind: 'BACK', delta: null }],
    ['found before, not now', k(null, 8, 3), { kind: 'DROPPED', delta: null }],
    ['not found either time', k(null, null, 1), { kind: 'ABSENT', delta: null }],
    ['checked once, not found', k(null, null, 0, 1), { kind: 'ABSENT', delta: null }],
  ])('%s', (_label, input, expected) => {
    expect(keywordChange(input)).toEqual(expected);
  });
});
