import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  VisibleTextAccumulator,
  combine,
  type VisibleTextSummary,
} from '../../../src/seo/page/visible-text.accumulator.js';

/**
 * The definition, written the obvious way over the whole text: lowercase, split on /\s+/, a word is a token
 * with a letter or digit, SHA-1 of the tokens joined by ' ' plus a trailing ' ', SimHash of 3-word shingles
 * counted with 64 plain counters. The streaming accumulator must give exactly this, however text arrives.
 */
function reference(text: string): VisibleTextSummary {
  const tokens = text
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '');
  const fnv = (t: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const isWord = (t: string) => /[0-9a-z]/i.test(t) || [...t].some((ch) => isLetterLike(ch.codePointAt(0)!));
  const words = tokens.filter(isWord).map(fnv);
  const normalized = tokens.length ? `${tokens.join(' ')} ` : '';
  const shingles: [number, number, number][] = [];
  for (let i = 2; i < words.length; i++) shingles.push([words[i - 2], words[i - 1], words[i]]);
  if (shingles.length === 0 && words.length > 0)
    shingles.push(words.length === 1 ? [0, words[0], 1] : [words[0], words[1], 2]);
  const low = new Array<number>(32).fill(0);
  const high = new Array<number>(32).fill(0);
  for (const [a, b, c] of shingles) {
    const l = combine(0x2545f491, a, b, c);
    const h = combine(0x6a09e667, a, b, c);
    for (let bit = 0; bit < 32; bit++) {
      low[bit] += (l >>> bit) & 1;
      high[bit] += (h >>> bit) & 1;
    }
  }
  const word32 = (counts: number[]) =>
    counts.reduce((acc, n, bit) => (2 * n > shingles.length ? acc | (1 << bit) : acc), 0) >>> 0;
  const hex = (v: number) => v.toString(16).padStart(8, '0');
  return {
    wordCount: words.length,
    textBytes: Math.max(0, Buffer.byteLength(normalized) - 1),
    textHash: createHash('sha1').update(normalized).digest('hex'),
    simhash: hex(word32(high)) + hex(word32(low)),
  };
}

/** Code points that count as letters beyond ASCII (the accumulator's documented rule, per UTF-16 unit). */
function isLetterLike(cp: number): boolean {
  const units = cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp];
  return units.some(
    (c) =>
      c >= 0xc0 &&
      c !== 0xd7 &&
      c !== 0xf7 &&
      !(c >= 0x2000 && c <= 0x2bff) &&
      !(c >= 0x3000 && c <= 0x303f) &&
      !(c >= 0xd800 && c <= 0xdfff) &&
      !(c >= 0xfe00 && c <= 0xfe0f),
  );
}

const WORDS = [
  'Hello',
  'WORLD',
  'café',
  'İstanbul',
  'naïve',
  '東京',
  '😀',
  '—',
  '|',
  '...',
  'x1',
  '42',
  'ß',
  'Ωmega',
  'a',
  'The',
  'mañana',
  '«»',
  'Ǆ',
];
const SPACES = [
  ' ',
  '  ',
  '\n',
  '\t',
  '\r\n',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  ' \n  ',
];

function random(seed: number) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

describe('visible text accumulator', () => {
  it('matches the whole-text definition for any chunking, boundary and whitespace mix (2,000 random documents)', () => {
    const rnd = random(7);
    const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
    for (let doc = 0; doc < 2000; doc++) {
      const acc = new VisibleTextAccumulator();
      let text = '';
      const ops = Math.floor(rnd() * (doc % 10 === 0 ? 1500 : 60));
      for (let op = 0; op < ops; op++) {
        if (rnd() < 0.15) {
          acc.boundary();
          if (text !== '' && !text.endsWith(' ')) text += ' ';
          continue;
        }
        let piece = '';
        const n = Math.floor(rnd() * 12);
        for (let k = 0; k < n; k++) piece += (rnd() < 0.6 ? pick(WORDS) : '') + (rnd() < 0.7 ? pick(SPACES) : '');
        acc.push(piece);
        text += piece;
      }
      expect(acc.finish(), JSON.stringify(text.slice(0, 200))).toEqual(reference(text));
    }
  });

  it('words split across pushes are one word; a boundary keeps neighbours apart', () => {
    const joined = new VisibleTextAccumulator();
    joined.push('Hel');
    joined.push('lo world');
    expect(joined.finish()).toEqual(reference('Hello world'));
    const apart = new VisibleTextAccumulator();
    apart.push('Hello');
    apart.boundary();
    apart.push('world');
    expect(apart.finish()).toEqual(reference('Hello world'));
  });

  it('text far beyond one buffer (40,000 characters) streams through with the same result', () => {
    const rnd = random(11);
    const text = Array.from({ length: 6000 }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' \n');
    const acc = new VisibleTextAccumulator();
    for (let i = 0; i < text.length; i += 997) acc.push(text.slice(i, i + 997));
    const summary = acc.finish();
    expect(summary).toEqual(reference(text));
    expect(summary.wordCount).toBeGreaterThan(4000);
  });

  it('no text: zero words, the hash of nothing', () => {
    const acc = new VisibleTextAccumulator();
    acc.push('  \n ');
    acc.boundary();
    expect(acc.finish()).toEqual({
      wordCount: 0,
      textBytes: 0,
      textHash: createHash('sha1').digest('hex'),
      simhash: '0000000000000000',
    });
  });
});
