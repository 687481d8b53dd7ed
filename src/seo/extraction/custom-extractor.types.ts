/**
 * A project's custom extractors (issue 50 item 5): what each one reads from a page's HTML. Extractors of kind CSS,
 * XPATH or REGEX give values (the URL table's `extract.<key>` columns); CONTAINS and NOT_CONTAINS searches give a
 * yes or no (`search.<key>`).
 */
export const EXTRACTOR_KINDS = ['CSS', 'XPATH', 'REGEX', 'CONTAINS', 'NOT_CONTAINS'] as const;
export type ExtractorKind = (typeof EXTRACTOR_KINDS)[number];

export const EXTRACTOR_OUTPUTS = ['TEXT', 'ATTRIBUTE', 'INNER_HTML'] as const;
export type ExtractorOutput = (typeof EXTRACTOR_OUTPUTS)[number];

export const EXTRACTOR_MATCHES = ['FIRST', 'ALL'] as const;
export type ExtractorMatch = (typeof EXTRACTOR_MATCHES)[number];

export interface ExtractorSpec {
  /** Stable, unique in the project: the column is `extract.<key>` or `search.<key>`. */
  key: string;
  kind: ExtractorKind;
  /** A CSS selector, an XPath 1.0 expression, or a regular expression (the searches: text, or a regex). */
  expression: string;
  /** CSS and XPath: what is taken of a matched element (a regex gives its first group, or the whole match). */
  output: ExtractorOutput;
  /** The attribute read when output is ATTRIBUTE. */
  attribute: string | null;
  match: ExtractorMatch;
  /** Searches: the expression is a regular expression rather than plain text. */
  regex: boolean;
  /** Regex kinds: case-insensitive. */
  ignoreCase: boolean;
}

/** The bounds of one page's evaluation. */
export const EXTRACTION_LIMITS = {
  extractorsPerProject: 20,
  /** Values kept per extractor and page (ALL). */
  valuesPerExtractor: 50,
  /** Characters kept of one value. */
  valueChars: 1_000,
  expressionChars: 1_000,
  /**
   * Characters of a page a regex extractor or regex search runs over (the first 256 Ki): a JavaScript regex cannot
   * be interrupted where it runs, so its text is bounded (and regexes that can backtrack catastrophically are
   * refused at save); past the budget and its margin, only stopping its thread stops it.
   * Plain-text searches, CSS and XPath read the whole page.
   */
  regexTextChars: 262_144,
  /** The default time budget of one page's extractors, in milliseconds. */
  pageBudgetMs: 250,
  /**
   * The hard bound's margin: a page-facts thread still on a page's extractors this long after their budget ran out
   * is stopped, and the page analysed again without the extractor it was stuck in (src/crawler/page-facts-pool.ts).
   */
  stopMarginMs: 250,
} as const;

/** An extractor's result on one page: its values, a search's verdict, or the budget ran out before it. */
export type ExtractionValue = string[] | boolean | 'timeout';

/** A page's results, by extractor key. */
export type PageExtraction = Record<string, ExtractionValue>;

export const isSearch = (kind: ExtractorKind): boolean => kind === 'CONTAINS' || kind === 'NOT_CONTAINS';
