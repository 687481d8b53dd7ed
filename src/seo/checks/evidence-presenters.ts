/**
 * What an evidence view is made of, and the presenters and cells the checks' `evidence` presenters share (issue 26):
 * the evaluators' free-form JSON turned into labelled facts and small tables of plain text, URLs resolved to absolute
 * ones. Pure: the web app, the CLI or a report renders the view; nothing here is markup.
 */

/** What the evidence is mostly about, so a client may lay it out to suit. */
export type EvidenceKind = 'LINKS' | 'IMAGES' | 'DUPLICATES' | 'REDIRECTS' | 'HEADERS' | 'RESOURCES' | 'VALUES';

export interface EvidenceCell {
  text: string;
  /** set when the cell is a URL (absolute) */
  url?: string;
}

export interface EvidenceFact {
  label: string;
  value: EvidenceCell;
}

export interface EvidenceTable {
  caption: string;
  columns: string[];
  rows: EvidenceCell[][];
  /** rows not listed */
  omitted: number;
}

export interface EvidenceView {
  kind: EvidenceKind;
  facts: EvidenceFact[];
  tables: EvidenceTable[];
}

/** Rows listed per table; the rest are counted in `omitted`. */
export const EVIDENCE_MAX_ROWS = 50;
/** Characters kept of one cell (stored evidence is bounded already; this bounds what older rows may hold). */
const MAX_CELL_CHARS = 600;

export type Evidence = Readonly<Record<string, unknown>>;

/** Collects a view's facts and tables, leaving out what says nothing. */
/** What the reader knows beyond the evidence row: the anchor text of the page's links (the audit's link graph). */
export interface EvidenceContext {
  /** The visible text of the page's first link to `targetUrl`; undefined when unknown. */
  anchorOf?(targetUrl: string): string | undefined;
}

export class ViewBuilder {
  readonly facts: EvidenceFact[] = [];
  readonly tables: EvidenceTable[] = [];

  constructor(
    readonly pageUrl: string,
    readonly context: EvidenceContext = {},
  ) {}

  fact(label: string, value: EvidenceCell | null): void {
    if (value === null || value.text === '' || value.text === '0') return;
    this.facts.push({ label, value });
  }

  /** `total`: how many items the evaluator counted, of which `rows` is its sample. */
  table(caption: string, columns: string[], rows: EvidenceCell[][], total = rows.length): void {
    if (rows.length === 0) return;
    const listed = rows.slice(0, EVIDENCE_MAX_ROWS);
    const omitted = Math.max(total, rows.length) - listed.length;
    this.tables.push({ caption, columns, rows: listed, omitted });
  }

  /** A page cell for the page the occurrence is about. */
  page(): EvidenceCell {
    return urlCell(this.pageUrl, this.pageUrl);
  }

  /** True when `url` is the occurrence's own page (a fact naming it would repeat the row it sits in). */
  isPage(url: string): boolean {
    return sameUrl(url, this.pageUrl);
  }
}

export interface Presenter {
  kind: EvidenceKind;
  /** Every key the code's evaluator emits; each is read below, or dropped on purpose (the comment says why). */
  keys: readonly string[];
  present?(evidence: Evidence, view: ViewBuilder): void;
}

/** Codes whose evaluator records no evidence: the title of the check says it all. */
export const NOTHING: Presenter = { kind: 'VALUES', keys: [] };
// Shared presenters

/** Entities with problems in words (structured-data-rules.ts): one row per problem. */
export function entityProblemTable(e: Evidence, view: ViewBuilder): void {
  view.table(
    'Structured data problems',
    ['Type', 'Problem'],
    recordsAt(e, 'entities').flatMap((entity) =>
      stringsAt(entity, 'problems').map((problem) => [
        textCell(stringAt(entity, 'type') ?? 'Thing'),
        textCell(problem),
      ]),
    ),
  );
}

/** hreflang, amphtml and rel=next/prev targets the crawl found bad (structured-international-checks.ts). */
export function targetTable(view: ViewBuilder, caption: string, labelColumn: string, e: Evidence): void {
  view.table(
    caption,
    [labelColumn, 'Target', 'Problem'],
    recordsAt(e, 'targets').map((target) => {
      const reason = stringAt(target, 'reason') ?? '';
      const canonical = stringAt(target, 'canonical');
      const problem =
        reason === 'noindex'
          ? 'noindex'
          : reason === 'canonicalized'
            ? `Canonical is ${canonical ?? 'another URL'}`
            : /^status \d+$/.test(reason)
              ? (statusCell(numberAt(target, 'status'), null, true)?.text ?? reason)
              : capitalize(reason);
      return [
        textCell(stringAt(target, 'label') ?? ''),
        urlCell(stringAt(target, 'url') ?? '', view.pageUrl),
        { text: problem },
      ];
    }),
  );
}

/** A list whose members may be null (a value that was absent). */
export function stringsOrNull(e: Evidence, key: string): (string | null)[] {
  const value = e[key];
  return Array.isArray(value) ? value.filter((v): v is string | null => v === null || typeof v === 'string') : [];
}

export function textAndLength(label: string, key: string): NonNullable<Presenter['present']> {
  return (e, view) => {
    view.fact(label, textCell(stringAt(e, key)));
    view.fact('Length', optional(charactersText, numberAt(e, 'length')));
  };
}

export function metricPresenter(key: string, label: string, format: (value: number) => string): Presenter {
  return { kind: 'VALUES', keys: [key], present: (e, view) => view.fact(label, optional(format, numberAt(e, key))) };
}

export function httpStatusFact(e: Evidence, view: ViewBuilder): void {
  view.fact('HTTP status', statusCell(numberAt(e, 'status'), null, false));
  // A failing URL is listed with its inlinks: the pages to fix are those that link to it.
  const inlinks = numberAt(e, 'inlinks');
  if (inlinks !== null) view.fact('Inlinks', { text: inlinks.toLocaleString('en-US') });
}

/** One column of strings; `total` (the evaluator's count) beyond the sample becomes `omitted`. */
export function listTable(
  view: ViewBuilder,
  caption: string,
  column: string,
  items: string[],
  total: number | null,
): void {
  view.table(
    caption,
    [column],
    items.map((item) => [textCell(item)]),
    total ?? 0,
  );
}

/** The other members of a duplicate group (`sameAs`, a sample of `duplicates`). */
export function duplicateTable(view: ViewBuilder, caption: string, e: Evidence): void {
  view.table(
    caption,
    ['Page'],
    stringsAt(e, 'sameAs').map((url) => [urlCell(url, view.pageUrl)]),
    numberAt(e, 'duplicates') ?? 0,
  );
}

/** One value of the raw HTML beside the rendered page's: "None" where a side has none. */
export function rawAndRendered(
  view: ViewBuilder,
  what: string,
  raw: EvidenceCell | null,
  rendered: EvidenceCell | null,
): void {
  view.table(`${what}: raw HTML and rendered page`, ['Raw HTML', 'Rendered'], [[raw ?? NONE, rendered ?? NONE]]);
}

const NONE: EvidenceCell = Object.freeze({ text: 'None' });

/** RENDER_NOINDEX_CHANGED / RENDER_NOFOLLOW_CHANGED: the verdict on each side and the robots meta tags behind it. */
export function robotsChange(view: ViewBuilder, what: string, e: Evidence): void {
  rawAndRendered(view, what, textCell(stringAt(e, 'raw')), textCell(stringAt(e, 'rendered')));
  rawAndRendered(
    view,
    'Robots meta tags',
    listCell(stringsAt(e, 'rawMeta'), ' | '),
    listCell(stringsAt(e, 'renderedMeta'), ' | '),
  );
}

/** Link targets given as plain URLs, from this page. */
export function linkTable(view: ViewBuilder, caption: string, e: Evidence): void {
  const anchors = anchorColumn(view);
  view.table(
    caption,
    ['Source page', 'Target', ...anchors.column],
    stringsAt(e, 'links').map((url) => [view.page(), urlCell(url, view.pageUrl), ...anchors.cell(url)]),
    numberAt(e, 'count') ?? 0,
  );
}

/** An "Anchor text" column when the link graph is known (absent from the CLI, which keeps no graph). */
function anchorColumn(view: ViewBuilder): { column: string[]; cell(url: string): EvidenceCell[] } {
  const anchorOf = view.context.anchorOf;
  if (!anchorOf) return { column: [], cell: () => [] };
  return {
    column: ['Anchor text'],
    cell: (url) => {
      const anchor = anchorOf(resolveUrl(url, view.pageUrl) ?? url);
      return [textCell(anchor === undefined ? '—' : anchor === '' ? '(no text)' : anchor)];
    },
  };
}

/** `links: [{ url, status, error? }]`: status null means no answer (error says why, when known). */
export function brokenLinkTable(view: ViewBuilder, caption: string, e: Evidence): void {
  const anchors = anchorColumn(view);
  view.table(
    caption,
    ['Source page', 'Target', ...anchors.column, 'Status'],
    recordsAt(e, 'links').map((link) => [
      view.page(),
      urlCell(stringAt(link, 'url') ?? '', view.pageUrl),
      ...anchors.cell(stringAt(link, 'url') ?? ''),
      findingStatus(link),
    ]),
    numberAt(e, 'count') ?? 0,
  );
}

/** `resources: [{ url, kind, status, error? }]` (resource-target-checks.ts). */
export function resourceTable(view: ViewBuilder, caption: string, statusColumn: string, e: Evidence): void {
  view.table(
    caption,
    ['Resource', 'Type', statusColumn],
    recordsAt(e, 'resources').map((resource) => [
      urlCell(stringAt(resource, 'url') ?? '', view.pageUrl),
      textCell(RESOURCE_KINDS[stringAt(resource, 'kind') ?? ''] ?? capitalize(stringAt(resource, 'kind') ?? 'Other')),
      findingStatus(resource),
    ]),
    numberAt(e, 'count') ?? 0,
  );
}

/**
 * `chain`: "302 https://a" for each redirect answer, then the URL the crawler ended on (page-checks.ts,
 * redirectChain, at most 12 entries of `hops` + 1).
 */
export function redirectTable(view: ViewBuilder, e: Evidence): void {
  const chain = stringsAt(e, 'chain');
  const seen = new Set<string>();
  const rows = chain.map((entry, index): EvidenceCell[] => {
    const hop = /^(\d{3}) (\S.*)$/.exec(entry);
    if (hop) {
      seen.add(comparable(hop[2]));
      return [urlCell(hop[2], view.pageUrl), statusCell(Number(hop[1]), null, false) ?? { text: hop[1] }];
    }
    const last = index === chain.length - 1;
    const loop = seen.has(comparable(entry));
    return [urlCell(entry, view.pageUrl), { text: loop ? 'Visited before: a loop' : last ? 'Final URL' : '' }];
  });
  const hops = numberAt(e, 'hops');
  view.table('Redirects', ['URL', 'Status'], rows, hops === null ? 0 : hops + 1);
}

/** Anything not mapped above: primitive values as facts, lists of flat records as tables; never JSON. */
export function presentGeneric(entries: [string, unknown][], view: ViewBuilder): void {
  for (const [key, value] of entries) {
    const label = humanize(key);
    if (Array.isArray(value)) {
      const records = value.filter(isRecord);
      if (records.length > 0) {
        const columns = [...new Set(records.flatMap((record) => Object.keys(record)))].filter((column) =>
          records.some((record) => primitiveText(record[column], view.pageUrl) !== null),
        );
        if (columns.length === 0) continue;
        view.table(
          label,
          columns.map(humanize),
          records.map((record) => columns.map((column) => primitiveText(record[column], view.pageUrl) ?? { text: '' })),
        );
      } else {
        const cells = value.flatMap((item) => primitiveText(item, view.pageUrl) ?? []);
        if (cells.length === 1) view.fact(label, cells[0]);
        else if (cells.length > 1)
          view.table(
            label,
            [label],
            cells.map((cell) => [cell]),
          );
      }
    } else {
      view.fact(label, primitiveText(value, view.pageUrl));
    }
  }
}

/** A string, number or true as a cell (URL-like strings as URL cells); null for anything else or nothing. */
function primitiveText(value: unknown, pageUrl: string): EvidenceCell | null {
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    return /^https?:\/\//i.test(value) ? urlCell(value, pageUrl) : textCell(value);
  }
  if (typeof value === 'number' && Number.isFinite(value)) return { text: formatNumber(value) };
  if (value === true) return { text: 'Yes' };
  return null;
}

// Cells

/** The width × height an image's attributes declare ("800 × ? (no height)"); the file itself is not decoded. */
export function dimensionsCell(image: Evidence): EvidenceCell {
  const width = stringAt(image, 'width');
  const height = stringAt(image, 'height');
  if (width === null && height === null) return { text: 'No width or height attribute' };
  if (height === null) return { text: clip(`width ${width}, no height attribute`) };
  if (width === null) return { text: clip(`height ${height}, no width attribute`) };
  return { text: clip(`${width} × ${height} (attributes)`) };
}

export function textCell(value: string): EvidenceCell;
export function textCell(value: string | null): EvidenceCell | null;
export function textCell(value: string | null): EvidenceCell | null {
  return value === null ? null : { text: clip(value) };
}

/** A value as the page wrote it (a relative or non-web href): plain text, never a link. */
export function writtenCell(value: string): EvidenceCell {
  return { text: clip(value) };
}

/** A URL cell: `href` resolved against `base`; an http(s) result carries `url`, anything else is plain text. */
export function urlCell(href: string, base: string): EvidenceCell {
  const resolved = resolveUrl(href, base);
  if (resolved === null) return { text: clip(href) };
  return { text: clip(resolved), url: resolved };
}

export function listCell(values: string[], separator = ', '): EvidenceCell | null {
  const shown = values.filter((value) => value.trim() !== '');
  return shown.length === 0 ? null : { text: clip(shown.join(separator)) };
}

export function anchorCell(text: string | null): EvidenceCell {
  return text === null || text.trim() === '' ? { text: '(no text)' } : textCell(text);
}

export function numberCell(value: number | null): EvidenceCell | null {
  return value === null ? null : { text: formatNumber(value) };
}

export function bytesCell(value: number | null): EvidenceCell | null {
  return value === null ? null : { text: formatBytes(value) };
}

export function wordsCell(words: number | null): EvidenceCell | null {
  if (words === null) return null;
  return { text: words === 0 ? 'None' : `${formatNumber(words)} ${words === 1 ? 'word' : 'words'}` };
}

export function presentButEmpty(count: number | null): EvidenceCell | null {
  if (count === null || count < 1) return null;
  return { text: count === 1 ? 'Present, but empty' : `${formatNumber(count)} elements, the first one empty` };
}

/**
 * An HTTP status as "404 Not Found"; null when there is no status: `noResponse` then says why when known, else
 * "No response" when `nullMeansNoResponse` (the evaluator records null for a failed fetch), else nothing.
 */
export function statusCell(
  status: number | null,
  noResponse: string | null,
  nullMeansNoResponse: boolean,
): EvidenceCell | null {
  if (status === null || status === 0) {
    if (noResponse) return { text: noResponse };
    return nullMeansNoResponse ? { text: 'No response' } : null;
  }
  const phrase = STATUS_PHRASES[status];
  return { text: phrase ? `${status} ${phrase}` : String(status) };
}

/** A broken target's status, or the reason it gave no answer. */
export function findingStatus(finding: Evidence): EvidenceCell {
  return statusCell(numberAt(finding, 'status'), stringAt(finding, 'error'), true)!;
}

/** hstsVerdict's reasons as site-checks.ts words them: "max-age=0" or "invalid: <parser error>". */
export const FRAME_PROBLEMS: Readonly<Record<string, string>> = {
  absent: 'Neither X-Frame-Options nor CSP frame-ancestors is sent',
  'frame-ancestors-wildcard': "CSP frame-ancestors allows '*' (any site)",
  'x-frame-options-conflict': 'X-Frame-Options has conflicting values, so browsers ignore it',
  'x-frame-options-invalid': 'X-Frame-Options is not DENY or SAMEORIGIN, so browsers ignore it',
};

export function hstsProblem(reason: string): string {
  return reason === 'max-age=0' ? 'max-age=0 switches HSTS off' : capitalize(reason);
}

export function canonicalProblem(reason: string | null): string {
  if (reason === null) return 'Unknown';
  const status = /^status (\d{3})$/.exec(reason);
  if (status) return statusCell(Number(status[1]), null, false)!.text;
  return CANONICAL_PROBLEMS[reason] ?? capitalize(reason);
}

// Formatting

export function formatNumber(value: number, maximumFractionDigits = 1): string {
  return value.toLocaleString('en-US', { maximumFractionDigits });
}

export function formatMs(value: number): string {
  return `${formatNumber(Math.round(value))} ms`;
}

/** Binary units, as the catalog states its limits ("over 200 KiB", "over 1 MiB"). */
export function formatBytes(value: number): string {
  if (Math.abs(value) < 1024) return `${formatNumber(value, 0)} ${value === 1 ? 'byte' : 'bytes'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let scaled = value / 1024;
  let unit = 0;
  while (Math.abs(scaled) >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return `${formatNumber(scaled, scaled < 10 ? 1 : 0)} ${units[unit]}`;
}

export function charactersText(value: number | null): string {
  return value === null ? 'Unknown' : `${formatNumber(value)} ${value === 1 ? 'character' : 'characters'}`;
}

export function optional<V>(format: (value: V) => string, value: V | null): EvidenceCell | null {
  return value === null ? null : { text: format(value) };
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "targetsWithoutReturn" -> "Targets without return". */
function humanize(key: string): string {
  return capitalize(
    key
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .toLowerCase(),
  );
}

function clip(text: string): string {
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}…` : text;
}

// URLs

function resolveUrl(href: string, base: string): string | null {
  if (href.trim() === '') return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function comparable(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

function sameUrl(a: string, b: string): boolean {
  return comparable(a) === comparable(b);
}

// Reading evidence

export function isRecord(value: unknown): value is Evidence {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function numberAt(e: Evidence, key: string): number | null {
  const value = e[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function stringAt(e: Evidence, key: string): string | null {
  const value = e[key];
  return typeof value === 'string' ? value : null;
}

export function stringsAt(e: Evidence, key: string): string[] {
  const value = e[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function recordsAt(e: Evidence, key: string): Evidence[] {
  const value = e[key];
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

// Words

const STATUS_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const NOINDEX_SOURCES: Readonly<Record<string, string>> = {
  meta: '<meta name="robots">',
  'googlebot-meta': '<meta name="googlebot">',
  header: 'X-Robots-Tag header',
};

/** NonIndexableReason (page-indexability.ts). */
export const NON_INDEXABLE_REASONS: Readonly<Record<string, string>> = {
  redirect: 'Redirects to another URL',
  'error-status': 'Answers with an error status',
  'no-response': 'No response',
  noindex: 'Marked noindex',
  canonicalized: 'Names another URL as canonical',
  'canonical-other-host': 'Names a URL of another host as canonical',
  'not-html': 'Not an HTML page',
};

/** canonicalOutcome's reasons (link-target-checks.ts), besides "status NNN". */
const CANONICAL_PROBLEMS: Readonly<Record<string, string>> = {
  noindex: 'Marked noindex',
  unreachable: 'No response',
  redirects: 'Redirects',
};

/** ResourceKind (page-facts.types.ts). */
const RESOURCE_KINDS: Readonly<Record<string, string>> = {
  image: 'Image',
  script: 'Script',
  stylesheet: 'Stylesheet',
  font: 'Font',
  icon: 'Icon',
  media: 'Media',
  other: 'Other',
};
