import { urlHost } from './serp-position.js';
import type { SerpResult } from './serp.types.js';

/**
 * Accumulates organic results across pages: drops non-http(s) and repeated URLs (Google repeats a URL
 * across pages, or with a #:~:text= fragment), numbers the rest 1..n and stops at the depth.
 */
export class SerpResultCollector {
  readonly results: SerpResult[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly depth: number) {}

  get full(): boolean {
    return this.results.length >= this.depth;
  }

  /** Returns whether the result was kept. */
  add(rawUrl: unknown, rawTitle: unknown): boolean {
    if (this.full || typeof rawUrl !== 'string') return false;
    let url: URL;
    try {
      url = new URL(rawUrl.trim());
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    url.hash = '';
    const key = url.href;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    const title = typeof rawTitle === 'string' && rawTitle.trim() !== '' ? rawTitle.trim() : null;
    this.results.push({ position: this.results.length + 1, url: key, domain: urlHost(key), title });
    return true;
  }
}
