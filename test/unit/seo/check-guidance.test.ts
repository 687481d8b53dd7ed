import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../../../src/seo/checks/check-catalog.js';
import { CHECK_GUIDANCE, guidanceFor } from '../../../src/seo/checks/check-guidance.js';

const WHY_MAX_CHARS = 240;
const FIX_MAX_CHARS = 320;

const catalogCodes: string[] = CHECK_CATALOG.map((check) => check.code);
const guidanceEntries = Object.entries(CHECK_GUIDANCE);

describe('CHECK_GUIDANCE', () => {
  it('has guidance for every code of the catalog', () => {
    const missing = catalogCodes.filter((code) => guidanceFor(code) === undefined);
    expect(missing).toEqual([]);
  });

  it('has no guidance for a code outside the catalog', () => {
    const catalog = new Set(catalogCodes);
    const extra = Object.keys(CHECK_GUIDANCE).filter((code) => !catalog.has(code));
    expect(extra).toEqual([]);
    expect(Object.keys(CHECK_GUIDANCE)).toHaveLength(catalog.size);
  });

  it.each(guidanceEntries)('%s: why and fix are short plain sentences', (_code, guidance) => {
    for (const [text, max] of [
      [guidance.why, WHY_MAX_CHARS],
      [guidance.fix, FIX_MAX_CHARS],
    ] as const) {
      expect(text.trim()).not.toBe('');
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text.endsWith('.')).toBe(true);
      expect(text).not.toContain('<');
      expect(text).not.toContain('{');
    }
  });

  it('gives every check its own fix text', () => {
    const byFix = new Map<string, string[]>();
    for (const [code, guidance] of guidanceEntries) byFix.set(guidance.fix, [...(byFix.get(guidance.fix) ?? []), code]);
    const shared = [...byFix.values()].filter((codes) => codes.length > 1);
    expect(shared).toEqual([]);
  });
});

describe('guidanceFor', () => {
  it('returns the guidance of a catalog code', () => {
    expect(guidanceFor('META_TITLE_MISSING')).toBe(CHECK_GUIDANCE.META_TITLE_MISSING);
  });

  it('returns undefined for an unknown code', () => {
    expect(guidanceFor('NOT_A_CHECK')).toBeUndefined();
    expect(guidanceFor('')).toBeUndefined();
    expect(guidanceFor('toString')).toBeUndefined();
    expect(guidanceFor('__proto__')).toBeUndefined();
  });
});
