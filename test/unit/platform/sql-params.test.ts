import { describe, expect, it } from 'vitest';
import { jsonParam } from '../../../src/platform/db/sql-params.js';

describe('jsonParam', () => {
  it('replaces U+0000 in strings and keys, at any depth, with U+FFFD', () => {
    const value = {
      'k\u0000': ['a\u0000b', { t: '\u0000\u0000' }],
      n: 1,
      b: null,
      d: new Date('2026-01-02T03:04:05.000Z'),
    };
    expect(JSON.parse(jsonParam(value))).toEqual({
      'k\uFFFD': ['a\uFFFDb', { t: '\uFFFD\uFFFD' }],
      n: 1,
      b: null,
      d: '2026-01-02T03:04:05.000Z',
    });
    expect(jsonParam(value)).not.toContain('\\u0000');
  });

  it('leaves everything else as JSON.stringify writes it, a literal backslash-u0000 text included', () => {
    for (const value of [{ a: 'plain', n: [1, 2] }, ['\\u0000 written out'], 'x', 3, null])
      expect(jsonParam(value)).toBe(JSON.stringify(value));
  });
});
