/** Namespace of sitemaps.org protocol 0.9; the root and its entries must live in it. */
export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Protocol limits: 50,000 entries and 50 MiB uncompressed per file. */
export const SITEMAP_MAX_ENTRIES = 50_000;
export const SITEMAP_MAX_BYTES = 52_428_800;
export const SITEMAP_MAX_LOC_LENGTH = 2_048;

export type SitemapType = 'urlset' | 'sitemapindex';

export type SitemapIssueCode =
  // input and XML level
  | 'EMPTY_INPUT'
  | 'NOT_XML'
  | 'BINARY_CONTENT'
  | 'UNSUPPORTED_ENCODING'
  | 'INVALID_UTF8'
  | 'GZIP_ERROR'
  | 'SIZE_LIMIT'
  | 'XML_SYNTAX'
  | 'NODE_TOO_LARGE'
  | 'UNESCAPED_AMPERSAND'
  | 'UNDEFINED_ENTITY'
  | 'UNBOUND_PREFIX'
  // document structure
  | 'INVALID_ROOT'
  | 'WRONG_NAMESPACE'
  | 'UNKNOWN_ELEMENT'
  | 'TOO_MANY_ENTRIES'
  | 'EMPTY_SITEMAP'
  // entries
  | 'LOC_MISSING'
  | 'LOC_MULTIPLE'
  | 'LOC_EMPTY'
  | 'LOC_NOT_ABSOLUTE'
  | 'LOC_BAD_SCHEME'
  | 'LOC_INVALID'
  | 'LOC_TOO_LONG'
  | 'LOC_UNESCAPED_CHARS'
  | 'LOC_OTHER_HOST'
  | 'LOC_SCHEME_MISMATCH'
  | 'LOC_WWW_MISMATCH'
  | 'LOC_OUTSIDE_PATH'
  | 'LOC_DUPLICATE'
  | 'LASTMOD_INVALID'
  | 'LASTMOD_FUTURE'
  | 'CHANGEFREQ_INVALID'
  | 'CHANGEFREQ_CASE'
  | 'PRIORITY_INVALID'
  | 'DUPLICATE_FIELD';

export interface SitemapIssue {
  /** 1-based line of the element (or of the syntax error); absent for document-wide findings. */
  line?: number;
  code: SitemapIssueCode;
  message: string;
}

/** One `<url>` of a urlset. String fields are the trimmed element text. */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
  changefreq: string | null;
  /** Parsed value; null when absent or invalid (the error says which). */
  priority: number | null;
  line: number;
}

/** One `<sitemap>` of a sitemap index. */
export interface SitemapIndexEntry {
  loc: string;
  lastmod: string | null;
  line: number;
}

export interface SitemapValidationOptions {
  /**
   * URL of the sitemap itself (or of its site). Every `loc` must share its protocol and host;
   * without it, the first valid `loc` sets the host the others must share.
   */
  baseUrl?: string;
  /** Stop with an error past this many uncompressed bytes. Default 52,428,800 (50 MiB). */
  maxBytes?: number;
  /** Entries allowed before TOO_MANY_ENTRIES; also bounds the duplicate-detection set. Default 50,000. */
  maxUrls?: number;
  /** Entries copied into `sample`. Default 20. */
  sampleSize?: number;
  /** Errors and warnings kept in the lists (totals are always counted). Default 100 each. */
  maxIssues?: number;
  /**
   * Called for each page URL of a urlset whose `loc` passed every check (host included), first
   * occurrence only, within `maxUrls`. A returned promise is awaited before more input is read.
   */
  onUrl?: (entry: SitemapEntry) => void | Promise<void>;
  /** Same as `onUrl`, for the child sitemaps of a sitemap index. */
  onSitemap?: (entry: SitemapIndexEntry) => void | Promise<void>;
  /** Reference time for future `lastmod` warnings. Default: the current time. */
  now?: Date;
}

export interface SitemapAnalysis {
  /** True when no error was found (warnings allowed). */
  valid: boolean;
  /** Root element; null when the document never reached a sitemap root. */
  type: SitemapType | null;
  /** Number of `<url>` entries (urlset) or `<sitemap>` entries (index) read, over the limit included. */
  urlCount: number;
  /** Index only: child sitemaps that passed the `loc` checks, first occurrence, within `maxUrls`. */
  sitemaps?: SitemapIndexEntry[];
  errors: SitemapIssue[];
  warnings: SitemapIssue[];
  errorCount: number;
  warningCount: number;
  /** Every error and warning counted by code, beyond the listed ones (e.g. LOC_OTHER_HOST for the audit). */
  issueCounts: Partial<Record<SitemapIssueCode, number>>;
  /** First `sampleSize` entries having a `loc`, as written (valid or not). */
  sample: SitemapEntry[];
  /** Entries whose (valid) `loc` repeats an earlier one, exact string match. */
  duplicateCount: number;
  /** Uncompressed bytes read; when the byte cap stopped the parse, it includes the chunk that crossed it. */
  sizeBytes: number;
  /** True when the input was gzip-compressed. */
  compressed: boolean;
  /** True when parsing stopped before the end of the document (fatal error). */
  truncated: boolean;
}

/** Accepted inputs: text, bytes (plain or gzip), or a stream of bytes such as a Node Readable. */
export type SitemapInput = string | Uint8Array | AsyncIterable<Uint8Array | string>;
