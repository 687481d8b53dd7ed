import { describe, expect, it } from 'vitest';
import { isAllowed, parseRobotsTxt } from '../../../src/seo/robots/index.js';

/** Small deterministic PRNG (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Rule {
  allow: boolean;
  path: string;
  line: number;
}

/** Reference matcher straight from RFC 9309's wording: a regular expression per rule, every rule tried. */
function referenceVerdict(rules: Rule[], path: string): { allowed: boolean; line: number | null } {
  let best: Rule | null = null;
  for (const rule of rules) {
    if (rule.path === '') continue;
    const anchored = rule.path.endsWith('$');
    const body = anchored ? rule.path.slice(0, -1) : rule.path;
    const source = body
      .split('*')
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    if (!new RegExp(`^${source}${anchored ? '$' : ''}`).test(path)) continue;
    if (
      best === null ||
      rule.path.length > best.path.length ||
      (rule.path.length === best.path.length && rule.allow && !best.allow)
    ) {
      best = rule;
    }
  }
  return best === null ? { allowed: true, line: null } : { allowed: best.allow, line: best.line };
}

// Only characters that need no percent-encoding, so both matchers compare the same strings.
const PATH_ALPHABET = ['a', 'b', 'c', '/', '/', '.', '-', '?', '='];

function randomText(next: () => number, alphabet: string[], maxLength: number): string {
  let text = '';
  const length = Math.floor(next() * (maxLength + 1));
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
  return text;
}

function randomRulePath(next: () => number): string {
  const kind = next();
  let path = kind < 0.1 ? '*' : '/';
  path += randomText(next, [...PATH_ALPHABET, '*', '*'], 7);
  if (next() < 0.25) path += '$';
  return path;
}

describe('rule index agrees with a plain reference matcher', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('random rule set %i', (seed) => {
    const next = random(seed);
    const rules: Rule[] = [];
    const ruleCount = 5 + Math.floor(next() * 300);
    for (let i = 0; i < ruleCount; i++) rules.push({ allow: next() < 0.4, path: randomRulePath(next), line: i + 2 });
    const robots = parseRobotsTxt(
      ['User-agent: *', ...rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.path}`)].join('\n'),
    );
    expect(robots.errors).toEqual([]);

    for (let i = 0; i < 400; i++) {
      const path = `/${randomText(next, PATH_ALPHABET, 14)}`;
      const expected = referenceVerdict(rules, path);
      // Absolute URLs, so a path starting with `//` is not read as a host.
      const verdict = isAllowed(robots, `https://example.com${path}`, 'bot');
      // Equal-length allow/disallow ties are settled the same way; among equal rules only the verdict matters.
      expect({ path, allowed: verdict.allowed }).toEqual({ path, allowed: expected.allowed });
      expect(verdict.matchedRule === null).toBe(expected.line === null);
    }
  });

  it('finds rules filed under the same key, and a key occurring several times in one path', () => {
    const robots = parseRobotsTxt(
      [
        'User-agent: *',
        'Disallow: /*ab*xx$',
        'Disallow: /*ab*y$',
        'Allow: /*ab*yy$',
        'Disallow: /*ab*zzz',
        'Allow: /ab/ab/',
      ].join('\n'),
    );
    const verdicts = ['/ab/ab/ab/xx', '/q/ab/y', '/ab/yy', '/ab/ab/zzz', '/abab', '/ab/ab/q'].map(
      (path) => isAllowed(robots, path, 'bot').matchedRule?.line ?? null,
    );
    expect(verdicts).toEqual([2, 3, 4, 5, null, 6]);
  });

  it('handles thousands of rules sharing prefixes and pieces', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 3000; i++) {
      lines.push(`Disallow: /shop/item-${i}/`, `Allow: /shop/item-${i}/public`, `Disallow: /*?ref=${i}&`);
    }
    const robots = parseRobotsTxt(lines.join('\n'));
    expect(isAllowed(robots, '/shop/item-1234/secret', 'bot').matchedRule?.path).toBe('/shop/item-1234/');
    expect(isAllowed(robots, '/shop/item-1234/public/x', 'bot').matchedRule?.path).toBe('/shop/item-1234/public');
    expect(isAllowed(robots, '/shop/item-12345/', 'bot').matchedRule).toBeNull();
    expect(isAllowed(robots, '/anything?ref=2999&y', 'bot').matchedRule?.path).toBe('/*?ref=2999&');
    expect(isAllowed(robots, '/anything?ref=3000&', 'bot').allowed).toBe(true);
  });
});
