/**
 * One instance and one small integer id per distinct URL string: what a crawl keeps per URL (link targets, page
 * URLs, canonicals) refers to URLs by id, so that a site's link graph costs 4 bytes per link instead of a pointer
 * to a string of its own, and equal URLs are one string however many pages name them.
 */
export class UrlTable {
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [];

  /** Distinct URLs so far; ids are 0 .. size - 1, in the order URLs were first interned. */
  get size(): number {
    return this.values.length;
  }

  /** The id of `url`, which is added when new. */
  intern(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(url, id);
      this.values.push(url);
    }
    return id;
  }

  /** The id of `url`, or -1 when it was never interned. */
  idOf(url: string): number {
    return this.ids.get(url) ?? -1;
  }

  /** The URL of an id (the interned instance). */
  url(id: number): string {
    return this.values[id];
  }
}

/**
 * A count per URL of a UrlTable (e.g. a page's inlinks), read as a map from URL to count that lists only the URLs
 * counted at least once: 4 bytes per URL instead of a map entry per URL.
 */
export class UrlCounts implements ReadonlyMap<string, number> {
  private counts = new Int32Array(1024);
  private nonZero = 0;

  constructor(private readonly urls: UrlTable) {}

  /** Adds one to the count of a URL id. */
  increment(id: number): void {
    if (id >= this.counts.length) {
      const grown = new Int32Array(Math.max(id + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    if (this.counts[id]++ === 0) this.nonZero++;
  }

  /** The count of a URL id (0 when never counted). */
  countOf(id: number): number {
    return id >= 0 && id < this.counts.length ? this.counts[id] : 0;
  }

  get size(): number {
    return this.nonZero;
  }

  get(url: string): number | undefined {
    const count = this.countOf(this.urls.idOf(url));
    return count > 0 ? count : undefined;
  }

  has(url: string): boolean {
    return this.get(url) !== undefined;
  }

  *entries(): MapIterator<[string, number]> {
    const end = Math.min(this.counts.length, this.urls.size);
    for (let id = 0; id < end; id++) if (this.counts[id] > 0) yield [this.urls.url(id), this.counts[id]];
  }

  *keys(): MapIterator<string> {
    for (const [url] of this.entries()) yield url;
  }

  *values(): MapIterator<number> {
    for (const [, count] of this.entries()) yield count;
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  forEach(callback: (value: number, key: string, map: ReadonlyMap<string, number>) => void, thisArg?: unknown): void {
    for (const [url, count] of this.entries()) callback.call(thisArg, count, url, this);
  }
}
