import { UrlTable, simhashHalves, type ResourceKind } from '../page/index.js';
import type { PageSummary } from './page-summary.types.js';

/**
 * The crawl's page summaries (what the site pass reads of every page) in columns: numbers in typed arrays, URLs as
 * ids of one UrlTable, link lists as runs of ids, text as UTF-8 outside the JavaScript heap. A page costs a few
 * hundred bytes and no object of its own, where PageSummary objects with their arrays and strings cost ~1.5 KB of
 * live heap per page, ~3.3 KB of resident memory (`npm run bench -- audit-100k`).
 *
 * Rows are added in crawl order (`add`) and read by row number; the site checks (site-checks.ts) work on rows and
 * ids, and build the few strings and objects they report.
 */
export class PageSummaryStore {
  readonly urls: UrlTable;
  private rows = 0;
  private capacity = 0;
  private urlIds = new Int32Array(0);
  private finalUrlIds = new Int32Array(0);
  /** -1: no canonical. */
  private canonicalIds = new Int32Array(0);
  private statuses = new Int32Array(0);
  private depths = new Int32Array(0);
  private words = new Float64Array(0);
  private flags = new Uint16Array(0);
  private simhashHigh = new Uint32Array(0);
  private simhashLow = new Uint32Array(0);
  /** 20 bytes per row: the SHA-1 of the page's text (PageSummary.textHash as 40 hex digits). */
  private textHashes = new Uint8Array(0);
  /** Text hashes that are not 40 lowercase hex digits (hand-made summaries), as given. */
  private readonly otherTextHashes = new Map<number, string>();
  private readonly texts: Record<TextField, TextColumn> = {
    title: new TextColumn(),
    description: new TextColumn(),
    h1: new TextColumn(),
  };
  /** Per row and text field: a hash of its duplicate key (see textKey); meaningful when the key flag is set. */
  private keyHashes = new Int32Array(0);
  private readonly internal = new IdRuns();
  private readonly external = new IdRuns();
  /** A page's resources: their URL ids, and their kinds (indexes into `kinds`). */
  private readonly resourceIds = new IdRuns();
  private readonly resourceKinds = new IdRuns(Uint8Array);
  private readonly kinds: ResourceKind[] = [];
  /** hreflang, amphtml and rel=next/prev, which few pages have: by row, in row order. */
  private readonly extras = new Map<number, Extras>();
  /** The links of the 2xx HTML pages (PageSummary.linkCount), those not read, and the pages with any not read. */
  private readonly linkTotals = { found: 0, notRead: 0, pagesOverCap: 0 };

  constructor(urls: UrlTable = new UrlTable()) {
    this.urls = urls;
  }

  /** The summaries of `pages`, in order. */
  static from(pages: Iterable<PageSummary>): PageSummaryStore {
    const store = new PageSummaryStore();
    for (const page of pages) store.add(page);
    return store;
  }

  get size(): number {
    return this.rows;
  }

  /** Appends a page; returns its row. Nothing of `summary` is kept: it can be dropped. */
  add(summary: PageSummary): number {
    const row = this.rows;
    if (row === this.capacity) this.grow();
    const urls = this.urls;
    this.urlIds[row] = urls.intern(summary.url);
    this.finalUrlIds[row] = urls.intern(summary.finalUrl);
    this.canonicalIds[row] = summary.canonical === null ? -1 : urls.intern(summary.canonical);
    this.statuses[row] = summary.status;
    this.depths[row] = summary.depth;
    this.words[row] = summary.wordCount;
    let flags = 0;
    if (summary.redirected) flags |= F_REDIRECTED;
    if (summary.isHtml) flags |= F_HTML;
    if (summary.indexable) flags |= F_INDEXABLE;
    if (summary.noindex) flags |= F_NOINDEX;
    if (summary.hasIconLink) flags |= F_ICON;
    if (summary.inSitemap !== undefined) flags |= summary.inSitemap ? F_SITEMAP_KNOWN | F_IN_SITEMAP : F_SITEMAP_KNOWN;
    if (summary.simhash) {
      flags |= F_SIMHASH;
      const [high, low] = simhashHalves(summary.simhash);
      this.simhashHigh[row] = high;
      this.simhashLow[row] = low;
    }
    if (summary.textHash) {
      flags |= F_TEXT_HASH;
      if (HEX_SHA1.test(summary.textHash)) this.textHashes.set(Buffer.from(summary.textHash, 'hex'), row * HASH_BYTES);
      else this.otherTextHashes.set(row, summary.textHash);
    }
    TEXT_FIELDS.forEach((field, i) => {
      const value = field === 'h1' ? (summary.h1 ?? null) : summary[field];
      this.texts[field].set(row, value);
      const key = textKey(value);
      if (key !== null) {
        flags |= F_KEY << i;
        this.keyHashes[row * TEXT_FIELDS.length + i] = hashString(key);
      }
    });
    this.flags[row] = flags;
    this.internal.start(row);
    for (const url of summary.internalLinks) this.internal.push(urls.intern(url));
    this.external.start(row);
    for (const url of summary.externalLinks) this.external.push(urls.intern(url));
    this.resourceIds.start(row);
    this.resourceKinds.start(row);
    for (const resource of summary.resources) {
      this.resourceIds.push(urls.intern(resource.url));
      let kind = this.kinds.indexOf(resource.kind);
      if (kind === -1) kind = this.kinds.push(resource.kind) - 1;
      this.resourceKinds.push(kind);
    }
    const extras: Extras = {};
    if (summary.hreflang.length > 0) extras.hreflang = summary.hreflang.map(({ lang, url }) => ({ lang, url }));
    if (summary.ampHtml !== undefined) extras.ampHtml = summary.ampHtml;
    if (summary.pagination !== undefined) extras.pagination = summary.pagination.map(({ rel, url }) => ({ rel, url }));
    if (extras.hreflang || extras.ampHtml !== undefined || extras.pagination) this.extras.set(row, extras);
    this.linkTotals.found += summary.linkCount ?? 0;
    if (summary.linksNotRead) {
      this.linkTotals.notRead += summary.linksNotRead;
      this.linkTotals.pagesOverCap++;
    }
    this.rows++;
    return row;
  }

  /**
   * The pages' links (PageSummary.linkCount, summed), those past a page's cap that were not read, and how many pages
   * had such links: the audit's counts (`links`).
   */
  get links(): { found: number; notRead: number; pagesOverCap: number } {
    return { ...this.linkTotals };
  }

  url(row: number): string {
    return this.urls.url(this.urlIds[row]);
  }

  urlId(row: number): number {
    return this.urlIds[row];
  }

  finalUrl(row: number): string {
    return this.urls.url(this.finalUrlIds[row]);
  }

  finalUrlId(row: number): number {
    return this.finalUrlIds[row];
  }

  canonical(row: number): string | null {
    const id = this.canonicalIds[row];
    return id === -1 ? null : this.urls.url(id);
  }

  status(row: number): number {
    return this.statuses[row];
  }

  depth(row: number): number {
    return this.depths[row];
  }

  wordCount(row: number): number {
    return this.words[row];
  }

  redirected(row: number): boolean {
    return (this.flags[row] & F_REDIRECTED) !== 0;
  }

  isHtml(row: number): boolean {
    return (this.flags[row] & F_HTML) !== 0;
  }

  indexable(row: number): boolean {
    return (this.flags[row] & F_INDEXABLE) !== 0;
  }

  noindex(row: number): boolean {
    return (this.flags[row] & F_NOINDEX) !== 0;
  }

  hasIconLink(row: number): boolean {
    return (this.flags[row] & F_ICON) !== 0;
  }

  /** PageSummary.inSitemap: undefined when the crawl did not say. */
  inSitemap(row: number): boolean | undefined {
    const flags = this.flags[row];
    return (flags & F_SITEMAP_KNOWN) === 0 ? undefined : (flags & F_IN_SITEMAP) !== 0;
  }

  /** The page's title, description or first h1 as written (null when none). */
  text(field: TextField, row: number): string | null {
    return this.texts[field].get(row);
  }

  /** Whether the field has a duplicate key (textKey), and a hash of it: equal keys have equal hashes. */
  hasTextKey(field: TextField, row: number): boolean {
    return (this.flags[row] & (F_KEY << TEXT_FIELDS.indexOf(field))) !== 0;
  }

  textKeyHash(field: TextField, row: number): number {
    return this.keyHashes[row * TEXT_FIELDS.length + TEXT_FIELDS.indexOf(field)];
  }

  /** PageSummary.simhash is set (not empty). */
  hasSimhash(row: number): boolean {
    return (this.flags[row] & F_SIMHASH) !== 0;
  }

  /** The SimHash's two halves, as simhashHalves reads them. */
  simhash(row: number): [number, number] {
    return [this.simhashHigh[row], this.simhashLow[row]];
  }

  /** PageSummary.textHash is set (not empty). */
  hasTextHash(row: number): boolean {
    return (this.flags[row] & F_TEXT_HASH) !== 0;
  }

  /** A hash of the text hash (equal text hashes give equal numbers); for rows with a text hash. */
  textHashCode(row: number): number {
    const other = this.otherTextHashes.get(row);
    if (other !== undefined) return hashString(other);
    const at = row * HASH_BYTES;
    const h = this.textHashes;
    return h[at] | (h[at + 1] << 8) | (h[at + 2] << 16) | (h[at + 3] << 24) | 0;
  }

  /** The two rows' text hashes are equal (both rows have one). */
  sameTextHash(a: number, b: number): boolean {
    const otherA = this.otherTextHashes.get(a);
    const otherB = this.otherTextHashes.get(b);
    if (otherA !== undefined || otherB !== undefined) return otherA === otherB;
    const h = this.textHashes;
    for (let i = 0, x = a * HASH_BYTES, y = b * HASH_BYTES; i < HASH_BYTES; i++)
      if (h[x + i] !== h[y + i]) return false;
    return true;
  }

  /** PageSummary.textHash (null when empty or absent). */
  textHash(row: number): string | null {
    if (!this.hasTextHash(row)) return null;
    return (
      this.otherTextHashes.get(row) ??
      Buffer.from(this.textHashes.buffer, this.textHashes.byteOffset + row * HASH_BYTES, HASH_BYTES).toString('hex')
    );
  }

  /** Calls `visit` with the id of each internal link target of the page, in order. */
  forEachInternalLink(row: number, visit: (id: number) => void): void {
    this.internal.forEach(row, this.rows, visit);
  }

  /** The URL ids of the page's external links (the audit's counts read them without making strings). */
  forEachExternalLink(row: number, visit: (id: number) => void): void {
    this.external.forEach(row, this.rows, visit);
  }

  /** The URL ids of the page's subresources. */
  forEachResource(row: number, visit: (id: number) => void): void {
    this.resourceIds.forEach(row, this.rows, visit);
  }

  internalLinks(row: number): string[] {
    return this.internal.map(row, this.rows, (id) => this.urls.url(id));
  }

  externalLinks(row: number): string[] {
    return this.external.map(row, this.rows, (id) => this.urls.url(id));
  }

  resources(row: number): { url: string; kind: ResourceKind }[] {
    const kinds = this.resourceKinds.map(row, this.rows, (kind) => this.kinds[kind]);
    let i = 0;
    return this.resourceIds.map(row, this.rows, (id) => ({ url: this.urls.url(id), kind: kinds[i++] }));
  }

  hreflang(row: number): readonly { lang: string; url: string }[] {
    return this.extras.get(row)?.hreflang ?? NONE;
  }

  ampHtml(row: number): string | null | undefined {
    return this.extras.get(row)?.ampHtml;
  }

  pagination(row: number): readonly { rel: 'next' | 'prev'; url: string }[] | undefined {
    return this.extras.get(row)?.pagination;
  }

  /** Rows with hreflang, amphtml or rel=next/prev links, ascending. */
  rowsWithLinkExtras(): IterableIterator<number> {
    return this.extras.keys();
  }

  private grow(): void {
    const capacity = Math.max(1024, this.capacity * 2);
    this.urlIds = grown(this.urlIds, capacity);
    this.finalUrlIds = grown(this.finalUrlIds, capacity);
    this.canonicalIds = grown(this.canonicalIds, capacity);
    this.statuses = grown(this.statuses, capacity);
    this.depths = grown(this.depths, capacity);
    this.words = grown(this.words, capacity);
    this.flags = grown(this.flags, capacity);
    this.simhashHigh = grown(this.simhashHigh, capacity);
    this.simhashLow = grown(this.simhashLow, capacity);
    this.textHashes = grown(this.textHashes, capacity * HASH_BYTES);
    this.keyHashes = grown(this.keyHashes, capacity * TEXT_FIELDS.length);
    this.capacity = capacity;
  }
}

export type TextField = 'title' | 'description' | 'h1';
const TEXT_FIELDS: readonly TextField[] = ['title', 'description', 'h1'];

/** What duplicate checks compare of a title, description or h1: whitespace collapsed, trimmed, lower case. */
export function textKey(value: string | null | undefined): string | null {
  const key = value?.replace(/\s+/g, ' ').trim().toLowerCase();
  return key ? key : null;
}

/** FNV-1a over UTF-16 code units, as a 32-bit signed integer. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

const F_REDIRECTED = 1;
const F_HTML = 2;
const F_INDEXABLE = 4;
const F_NOINDEX = 8;
const F_ICON = 16;
const F_SITEMAP_KNOWN = 32;
const F_IN_SITEMAP = 64;
const F_SIMHASH = 128;
const F_TEXT_HASH = 256;
/** The first of three bits, one per text field: the field has a duplicate key. */
const F_KEY = 512;

const HASH_BYTES = 20;
const HEX_SHA1 = /^[0-9a-f]{40}$/;
const NONE: readonly never[] = Object.freeze([]);

interface Extras {
  hreflang?: { lang: string; url: string }[];
  ampHtml?: string | null;
  pagination?: { rel: 'next' | 'prev'; url: string }[];
}

type GrowableArray =
  | Int32Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>
  | Float64Array<ArrayBuffer>;

/** A copy of `array`, `length` long, of the same type (the rest zero). */
function grown<T extends GrowableArray>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}

const RUN_CHUNK_BITS = 16;
const RUN_CHUNK = 1 << RUN_CHUNK_BITS;

/**
 * One list of integers per row, rows appended in order: the values of all rows one after another in fixed-size
 * chunks (growing never copies them), and where each row's run starts.
 */
class IdRuns {
  private readonly chunks: (Int32Array | Uint8Array)[] = [];
  private length = 0;
  private starts = new Uint32Array(1024);

  /** Int32Array chunks (URL ids), or Uint8Array for small values. */
  constructor(private readonly Chunk: Int32ArrayConstructor | Uint8ArrayConstructor = Int32Array) {}

  /** Opens the run of `row` (the row after the last one). */
  start(row: number): void {
    if (row >= this.starts.length) this.starts = grown(this.starts, this.starts.length * 2);
    this.starts[row] = this.length;
  }

  push(value: number): void {
    const chunk = this.length >>> RUN_CHUNK_BITS;
    const at = this.length & (RUN_CHUNK - 1);
    if (chunk === this.chunks.length) this.chunks.push(new this.Chunk(chunk === 0 ? 1024 : RUN_CHUNK));
    else if (at === this.chunks[chunk].length) {
      // The first chunk starts small (a small site's store stays small) and doubles to full size.
      const grown = new this.Chunk(this.chunks[chunk].length * 2);
      grown.set(this.chunks[chunk]);
      this.chunks[chunk] = grown;
    }
    this.chunks[chunk][at] = value;
    this.length++;
  }

  /** `rows`: the rows added so far (the last run ends at the end). */
  forEach(row: number, rows: number, visit: (value: number) => void): void {
    const end = row + 1 < rows ? this.starts[row + 1] : this.length;
    for (let i = this.starts[row]; i < end; i++) visit(this.chunks[i >>> RUN_CHUNK_BITS][i & (RUN_CHUNK - 1)]);
  }

  map<T>(row: number, rows: number, of: (value: number) => T): T[] {
    const out: T[] = [];
    this.forEach(row, rows, (value) => out.push(of(value)));
    return out;
  }
}

const TEXT_CHUNK_BITS = 18;
const TEXT_CHUNK = 1 << TEXT_CHUNK_BITS;
/** Longer strings (in UTF-8 bytes) are kept as strings, beside the chunks. */
const TEXT_INLINE_MAX = TEXT_CHUNK >>> 4;
const NULL_TEXT = -1;
const KEPT_TEXT = -2;
/** A lone surrogate does not survive UTF-8: such strings are kept as they are. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * One string (or null) per row, as UTF-8 in fixed-size chunks outside the JavaScript heap: where a row's bytes start
 * (chunk and offset in one number) and how many there are.
 */
class TextColumn {
  private readonly chunks: Buffer[] = [];
  private used = 0;
  private positions = new Uint32Array(1024);
  private lengths = new Int32Array(1024);
  private readonly kept = new Map<number, string>();

  set(row: number, value: string | null): void {
    if (row >= this.positions.length) {
      this.positions = grown(this.positions, this.positions.length * 2);
      this.lengths = grown(this.lengths, this.lengths.length * 2);
    }
    if (value === null) {
      this.lengths[row] = NULL_TEXT;
      return;
    }
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > TEXT_INLINE_MAX || (bytes !== value.length && LONE_SURROGATE.test(value))) {
      this.lengths[row] = KEPT_TEXT;
      this.kept.set(row, value);
      return;
    }
    if (this.chunks.length === 0 || this.used + bytes > TEXT_CHUNK) {
      // The first chunk starts small (a small site's store stays small) and doubles to full size.
      this.chunks.push(Buffer.allocUnsafeSlow(this.chunks.length === 0 ? Math.max(4096, bytes) : TEXT_CHUNK));
      this.used = 0;
    } else if (this.used + bytes > this.chunks[this.chunks.length - 1].length) {
      const first = this.chunks[0];
      const grown = Buffer.allocUnsafeSlow(Math.min(TEXT_CHUNK, Math.max(first.length * 2, this.used + bytes)));
      first.copy(grown, 0, 0, this.used);
      this.chunks[0] = grown;
    }
    const chunk = this.chunks.length - 1;
    this.chunks[chunk].write(value, this.used, bytes, 'utf8');
    this.positions[row] = chunk * TEXT_CHUNK + this.used;
    this.lengths[row] = bytes;
    this.used += bytes;
  }

  get(row: number): string | null {
    const length = this.lengths[row];
    if (length === NULL_TEXT) return null;
    if (length === KEPT_TEXT) return this.kept.get(row)!;
    const position = this.positions[row];
    const offset = position & (TEXT_CHUNK - 1);
    return this.chunks[Math.floor(position / TEXT_CHUNK)].toString('utf8', offset, offset + length);
  }
}
