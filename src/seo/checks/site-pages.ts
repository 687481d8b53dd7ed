import { normalizeUrl } from '../page/index.js';
import { textKey, type PageSummaryStore, type TextField } from './page-summary-store.js';

/**
 * The crawled pages as the site pass reads them: the store's rows, the documents among them (one per final URL), and
 * what several checks derive from them (normalized URLs, document keys, classes of equal texts), computed once, as
 * ids and typed arrays rather than maps of strings and objects.
 */
export class SitePages {
  /** Rows of the documents, deduplicated by final URL (a direct fetch before a redirect ending there), ascending. */
  readonly unique: Int32Array;
  private readonly uniqueFlags: Uint8Array;
  /** normalizeUrl(finalUrl) and normalizeUrl(url) per row, as ids of store.urls; -1 where normalizeUrl gives null. */
  private readonly normFinals: Int32Array;
  private readonly normUrls: Int32Array;
  private docKeys: Int32Array | null = null;
  /** documentKey strings that are no URL of the store: numbered from EXTRA_KEYS. */
  private readonly extraKeys = new Map<string, number>();
  private textHashClasses: Classes | null = null;
  private documentClasses: Classes | null = null;
  private readonly textKeyClasses = new Map<TextField, Classes>();

  constructor(readonly store: PageSummaryStore) {
    const rows = store.size;
    this.normFinals = new Int32Array(rows);
    this.normUrls = new Int32Array(rows);
    for (let row = 0; row < rows; row++) {
      this.normFinals[row] = normalizedId(store, store.finalUrl(row), store.finalUrlId(row));
      this.normUrls[row] = normalizedId(store, store.url(row), store.urlId(row));
    }
    // A redirect source and its target can both be listed; the document at a final URL counts once, represented by
    // its direct fetch when there is one.
    const chosen = new Int32Array(store.urls.size).fill(-1);
    for (let row = 0; row < rows; row++) {
      const key = this.finalKey(row);
      const current = chosen[key];
      if (current === -1 || (store.redirected(current) && !store.redirected(row))) chosen[key] = row;
    }
    this.uniqueFlags = new Uint8Array(rows);
    let count = 0;
    for (const row of chosen) {
      if (row === -1) continue;
      this.uniqueFlags[row] = 1;
      count++;
    }
    this.unique = new Int32Array(count);
    for (let row = 0, i = 0; row < rows; row++) if (this.uniqueFlags[row]) this.unique[i++] = row;
  }

  get size(): number {
    return this.store.size;
  }

  isUnique(row: number): boolean {
    return this.uniqueFlags[row] === 1;
  }

  /** normalizeUrl(finalUrl) as an id of store.urls, -1 when null. */
  normFinal(row: number): number {
    return this.normFinals[row];
  }

  /** normalizeUrl(url) as an id of store.urls, -1 when null. */
  normUrl(row: number): number {
    return this.normUrls[row];
  }

  /** `normalizeUrl(finalUrl) ?? finalUrl`, as an id of store.urls. */
  finalKey(row: number): number {
    const id = this.normFinals[row];
    return id === -1 ? this.store.finalUrlId(row) : id;
  }

  /**
   * documentKey(finalUrl) as a number (equal keys, equal numbers; an id of store.urls when the key is one of its
   * URLs), -1 when the final URL does not parse.
   */
  docKey(row: number): number {
    this.docKeys ??= new Int32Array(this.size).fill(-2);
    let id = this.docKeys[row];
    if (id !== -2) return id;
    const finalUrl = this.store.finalUrl(row);
    const key = documentKey(finalUrl);
    if (key === null) id = -1;
    else if (key === finalUrl) id = this.store.finalUrlId(row);
    else {
      id = this.store.urls.idOf(key);
      if (id === -1) {
        id = this.extraKeys.get(key) ?? EXTRA_KEYS + this.extraKeys.size;
        this.extraKeys.set(key, id);
      }
    }
    this.docKeys[row] = id;
    return id;
  }

  /** Classes of equal text hashes over every row with one (-1: none). */
  textHashes(): Classes {
    this.textHashClasses ??= classify(
      rowsWhere(this.size, (row) => this.store.hasTextHash(row)),
      this.size,
      (row) => this.store.textHashCode(row),
      (a, b) => this.store.sameTextHash(a, b),
    );
    return this.textHashClasses;
  }

  /**
   * Classes of documents (documentKey of the final URL, a null key included, and text hash) over every row with a text
   * hash (-1: none): one document answering under URL variants is one class.
   */
  documents(): Classes {
    if (!this.documentClasses) {
      const hashes = this.textHashes().of;
      this.documentClasses = classify(
        rowsWhere(this.size, (row) => this.store.hasTextHash(row)),
        this.size,
        (row) => Math.imul(this.docKey(row) + 1, 0x9e3779b1) ^ hashes[row],
        (a, b) => this.docKey(a) === this.docKey(b) && hashes[a] === hashes[b],
      );
    }
    return this.documentClasses;
  }

  /** Classes of equal duplicate keys (textKey) of a text field over the documents (-1: no key). */
  textKeys(field: TextField): Classes {
    let classes = this.textKeyClasses.get(field);
    if (!classes) {
      const store = this.store;
      classes = classify(
        rowsWhere(this.unique, (row) => store.hasTextKey(field, row)),
        this.size,
        (row) => store.textKeyHash(field, row),
        (a, b) => textKey(store.text(field, a)) === textKey(store.text(field, b)),
      );
      this.textKeyClasses.set(field, classes);
    }
    return classes;
  }
}

/** Where docKey numbers of keys that are no URL of the store start (beyond any URL id). */
const EXTRA_KEYS = 2 ** 30;

/** Rows numbered by equal keys: `of[row]` is the class of the row's key (-1: no key); classes are 0 .. count - 1. */
export interface Classes {
  of: Int32Array;
  count: number;
}

/**
 * Classes of `rows` by key, from a hash of the key and an exact comparison: a table of each class's first row, open
 * addressing on the hash; rows whose hashes collide are compared with the first row of each class of that hash. Typed
 * arrays only: no map of 100,000 entries for the garbage collector to promote and sweep.
 */
function classify(
  rows: Iterable<number>,
  size: number,
  hashOf: (row: number) => number,
  same: (a: number, b: number) => boolean,
): Classes {
  const of = new Int32Array(size).fill(-1);
  let mask = 1023;
  // First row of a class + 1 (0: an empty slot).
  let firsts = new Int32Array(mask + 1);
  let count = 0;
  const place = (table: Int32Array, tableMask: number, row: number, hash: number): void => {
    let at = mix(hash) & tableMask;
    while (table[at] !== 0) at = (at + 1) & tableMask;
    table[at] = row + 1;
  };
  for (const row of rows) {
    if ((count + 1) * 2 > mask + 1) {
      const grown = new Int32Array((mask + 1) * 2);
      const grownMask = grown.length - 1;
      for (const slot of firsts) if (slot !== 0) place(grown, grownMask, slot - 1, hashOf(slot - 1));
      firsts = grown;
      mask = grownMask;
    }
    const hash = hashOf(row);
    let at = mix(hash) & mask;
    for (;;) {
      const slot = firsts[at];
      if (slot === 0) {
        firsts[at] = row + 1;
        of[row] = count++;
        break;
      }
      const first = slot - 1;
      if (hashOf(first) === hash && same(first, row)) {
        of[row] = of[first];
        break;
      }
      at = (at + 1) & mask;
    }
  }
  return { of, count };
}

/** Spreads a 32-bit hash over the low bits (murmur3's finalizer). */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The rows (0 .. size - 1, or those listed) that pass `test`, in order. */
function* rowsWhere(rows: number | Int32Array, test: (row: number) => boolean): Generator<number> {
  if (typeof rows === 'number') {
    for (let row = 0; row < rows; row++) if (test(row)) yield row;
  } else for (const row of rows) if (test(row)) yield row;
}

/** normalizeUrl(url) as an id of the store's URLs (`id`: url's own), -1 when null. */
function normalizedId(store: PageSummaryStore, url: string, id: number): number {
  const normalized = normalizeUrl(url);
  if (normalized === null) return -1;
  return normalized === url ? id : store.urls.intern(normalized);
}

/**
 * What makes two crawled URLs one page, as keys: a URL shares a key with another when both end at the same final URL,
 * when the canonical of one is the other's final URL or canonical, or when both are variants of one document
 * (`/dir/` and `/dir/index.html`, see documentKey) with the same text. Lab vitals measure one URL per page.
 */
export function pageIdentityKeys(finalUrl: string, canonical: string | null, textHash: string | null): string[] {
  const keys = [`url ${normalizeUrl(finalUrl) ?? finalUrl}`];
  if (canonical !== null) keys.push(`url ${normalizeUrl(canonical) ?? canonical}`);
  const document = documentKey(finalUrl);
  if (document !== null && textHash !== null) keys.push(`text ${normalizeUrl(document) ?? document} ${textHash}`);
  return keys;
}

/** The URL a document would have without its directory-index file name and trailing slash. */
export function documentKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  parsed.hash = '';
  parsed.pathname = parsed.pathname.replace(/\/(index|default)\.(html?|php|aspx?)$/i, '/').replace(/(.)\/$/, '$1');
  return parsed.href;
}
