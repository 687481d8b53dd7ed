import { createHash, type Hash } from 'node:crypto';

/** Buffered characters before words are counted and hashed; bounds memory whatever the page size. */
const FLUSH_CHARS = 4_096;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export interface VisibleTextSummary {
  wordCount: number;
  textBytes: number;
  textHash: string;
  simhash: string;
}

/**
 * Consumes visible text in arbitrary chunks and keeps only counters and running hashes: a word count,
 * the UTF-8 size of the whitespace-collapsed text, a SHA-1 of the lowercased normalized text (exact
 * duplicates) and a 64-bit SimHash over 3-word shingles (near duplicates).
 */
export class VisibleTextAccumulator {
  private buffer = '';
  /** Last code unit of `buffer` (meaningful while it is not empty). */
  private lastCode = 0;
  private words = 0;
  private bytes = 0;
  private readonly hash: Hash = createHash('sha1');
  /**
   * SimHash bit counters, bit-sliced: plane j holds bit j of every one of the 64 per-bit counts, so
   * adding a shingle is a ripple-carry over ~2 planes instead of 64 increments.
   */
  private readonly lowPlanes = new Int32Array(32);
  private readonly highPlanes = new Int32Array(32);
  private planesUsed = 0;
  private prev1 = 0;
  private prev2 = 0;
  private shingles = 0;

  push(text: string): void {
    if (text === '') return;
    this.buffer += text;
    this.lastCode = text.charCodeAt(text.length - 1);
    if (this.buffer.length >= FLUSH_CHARS) this.flush(false);
  }

  /** Marks a block boundary (end of a paragraph, cell, line break): words on either side stay apart. */
  boundary(): void {
    // The last code unit is remembered: reading it off the concatenated buffer would flatten it every time.
    if (this.buffer.length > 0 && this.lastCode !== 32) {
      this.buffer += ' ';
      this.lastCode = 32;
    }
  }

  finish(): VisibleTextSummary {
    this.flush(true);
    // Under three words there is no full shingle; hash what there is so tiny pages still differ.
    if (this.shingles === 0 && this.words > 0) this.addShingle(this.prev2, this.prev1, this.words);
    // A SimHash bit is set when more than half of the shingles have it set.
    let high = 0;
    let low = 0;
    for (let bit = 0; bit < 32; bit++) {
      let lowCount = 0;
      let highCount = 0;
      for (let plane = 0, weight = 1; plane < this.planesUsed; plane++, weight *= 2) {
        lowCount += ((this.lowPlanes[plane] >>> bit) & 1) * weight;
        highCount += ((this.highPlanes[plane] >>> bit) & 1) * weight;
      }
      if (2 * lowCount > this.shingles) low |= 1 << bit;
      if (2 * highCount > this.shingles) high |= 1 << bit;
    }
    return {
      wordCount: this.words,
      textBytes: Math.max(0, this.bytes - 1),
      textHash: this.hash.digest('hex'),
      simhash: hex32(high) + hex32(low),
    };
  }

  private flush(final: boolean): void {
    let chunk = this.buffer;
    if (final) {
      this.buffer = '';
    } else {
      // Keep a trailing partial word for the next chunk; a single giant token is taken as is.
      let cut = chunk.length;
      while (cut > 0 && !isJsSpace(chunk.charCodeAt(cut - 1))) cut--;
      if (cut === 0) cut = chunk.length;
      this.buffer = chunk.slice(cut);
      chunk = chunk.slice(0, cut);
    }
    // One pass over the lowercased chunk, no regex and no token array: words are hashed as they are
    // read (FNV-1a, word test folded in), and the normalized text (words joined by ' ', plus a trailing
    // ' ') is assembled from the stretches that already have that form, cut only at irregular whitespace.
    const lower = chunk.toLowerCase();
    const n = lower.length;
    let normalized = '';
    let segmentStart = -1;
    let inToken = false;
    let word = false;
    let h = FNV_OFFSET;
    for (let i = 0; i < n;) {
      const c = lower.charCodeAt(i);
      if (!isJsSpace(c)) {
        if (!inToken) {
          inToken = true;
          if (segmentStart < 0) segmentStart = i;
        }
        h = Math.imul(h ^ c, FNV_PRIME);
        if (!word) word = isWordCode(c);
        i++;
        continue;
      }
      let end = i + 1;
      while (end < n && isJsSpace(lower.charCodeAt(end))) end++;
      if (inToken) {
        if (word) this.addWord(h >>> 0);
        inToken = false;
        word = false;
        h = FNV_OFFSET;
      }
      // A single ' ' between two words is already normalized: the stretch goes on.
      if (segmentStart >= 0 && !(c === 32 && end === i + 1 && end < n)) {
        normalized += lower.slice(segmentStart, i) + ' ';
        segmentStart = -1;
      }
      i = end;
    }
    if (inToken && word) this.addWord(h >>> 0);
    if (segmentStart >= 0) normalized += lower.slice(segmentStart) + ' ';
    if (normalized === '') return;
    this.hash.update(normalized);
    this.bytes += Buffer.byteLength(normalized);
  }

  private addWord(token: number): void {
    this.words++;
    if (this.words >= 3) this.addShingle(this.prev2, this.prev1, token);
    this.prev2 = this.prev1;
    this.prev1 = token;
  }

  private addShingle(a: number, b: number, c: number): void {
    this.shingles++;
    let carryLow = combine(0x2545f491, a, b, c) | 0;
    let carryHigh = combine(0x6a09e667, a, b, c) | 0;
    const lowPlanes = this.lowPlanes;
    const highPlanes = this.highPlanes;
    let plane = 0;
    for (; (carryLow | carryHigh) !== 0; plane++) {
      const low = lowPlanes[plane];
      const high = highPlanes[plane];
      lowPlanes[plane] = low ^ carryLow;
      highPlanes[plane] = high ^ carryHigh;
      carryLow &= low;
      carryHigh &= high;
    }
    if (plane > this.planesUsed) this.planesUsed = plane;
  }
}

/** Exactly the code units /\s/ matches (ECMAScript WhiteSpace and LineTerminator). */
function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A token is a word when it holds a letter or digit. Non-ASCII code points count as letters except
 * the punctuation, symbol and emoji ranges, which keeps "—" or "|" out without a Unicode regex.
 */
function isWordCode(c: number): boolean {
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return (
    c >= 0xc0 &&
    c !== 0xd7 &&
    c !== 0xf7 &&
    !(c >= 0x2000 && c <= 0x2bff) &&
    !(c >= 0x3000 && c <= 0x303f) &&
    !(c >= 0xd800 && c <= 0xdfff) &&
    !(c >= 0xfe00 && c <= 0xfe0f)
  );
}

/** Order-sensitive mix of three word hashes into 32 well-spread bits (murmur3 finalizer). */
export function combine(seed: number, a: number, b: number, c: number): number {
  let h = seed;
  h = Math.imul(h ^ a, 0x9e3779b1);
  h = (h << 13) | (h >>> 19);
  h = Math.imul(h ^ b, 0x85ebca77);
  h = (h << 13) | (h >>> 19);
  h = Math.imul(h ^ c, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
