import type { CheckCode } from './check-catalog.js';

/**
 * An occurrence's evidence as a person reads it (issue 26): the evaluators' free-form JSON turned into labelled
 * facts and small tables of plain text, URLs resolved to absolute ones. Pure: the web app, the CLI or a report
 * renders the view; nothing here is markup.
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

type Evidence = Readonly<Record<string, unknown>>;

/** Collects a view's facts and tables, leaving out what says nothing. */
/** What the reader knows beyond the evidence row: the anchor text of the page's links (the audit's link graph). */
export interface EvidenceContext {
  /** The visible text of the page's first link to `targetUrl`; undefined when unknown. */
  anchorOf?(targetUrl: string): string | undefined;
}

class ViewBuilder {
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

interface Presenter {
  kind: EvidenceKind;
  /** Every key the code's evaluator emits; each is read below, or dropped on purpose (the comment says why). */
  keys: readonly string[];
  present?(evidence: Evidence, view: ViewBuilder): void;
}

/** Codes whose evaluator records no evidence: the title of the check says it all. */
const NOTHING: Presenter = { kind: 'VALUES', keys: [] };

/**
 * The shape of each code's evidence, code by code (the evaluators: page-checks.ts, site-checks.ts,
 * link-target-checks.ts, resource-target-checks.ts, page-indexability.ts). `count` keys give the total of which a
 * list is a sample: they become the table's `omitted`, never a fact of their own.
 */
const PRESENTERS: Readonly<Record<CheckCode, Presenter>> = {
  // META
  META_TITLE_MISSING: {
    kind: 'VALUES',
    keys: ['titleCount'],
    // 0 restates "missing"; one or more means the element is there but empty.
    present: (e, view) => view.fact('Title element', presentButEmpty(numberAt(e, 'titleCount'))),
  },
  META_TITLE_TOO_SHORT: { kind: 'VALUES', keys: ['title', 'length'], present: textAndLength('Title', 'title') },
  META_TITLE_TOO_LONG: { kind: 'VALUES', keys: ['title', 'length'], present: textAndLength('Title', 'title') },
  META_TITLE_MULTIPLE: {
    kind: 'VALUES',
    keys: ['count', 'titles'],
    present: (e, view) => listTable(view, 'Titles on the page', 'Title', stringsAt(e, 'titles'), numberAt(e, 'count')),
  },
  META_TITLE_DUPLICATE: {
    kind: 'DUPLICATES',
    keys: ['title', 'duplicates', 'sameAs'],
    present: (e, view) => {
      view.fact('Title', textCell(stringAt(e, 'title')));
      duplicateTable(view, 'Other pages with this title', e);
    },
  },
  META_DESCRIPTION_MISSING: {
    kind: 'VALUES',
    keys: ['count'],
    present: (e, view) => view.fact('Meta description', presentButEmpty(numberAt(e, 'count'))),
  },
  META_DESCRIPTION_TOO_SHORT: {
    kind: 'VALUES',
    keys: ['description', 'length'],
    present: textAndLength('Meta description', 'description'),
  },
  META_DESCRIPTION_TOO_LONG: {
    kind: 'VALUES',
    keys: ['description', 'length'],
    present: textAndLength('Meta description', 'description'),
  },
  META_DESCRIPTION_MULTIPLE: {
    kind: 'VALUES',
    keys: ['count', 'descriptions'],
    present: (e, view) =>
      listTable(
        view,
        'Meta descriptions on the page',
        'Description',
        stringsAt(e, 'descriptions'),
        numberAt(e, 'count'),
      ),
  },
  META_DESCRIPTION_DUPLICATE: {
    kind: 'DUPLICATES',
    keys: ['description', 'duplicates', 'sameAs'],
    present: (e, view) => {
      view.fact('Meta description', textCell(stringAt(e, 'description')));
      duplicateTable(view, 'Other pages with this meta description', e);
    },
  },
  META_TAGS_IN_BODY: {
    kind: 'VALUES',
    keys: ['tags'],
    present: (e, view) => view.fact('Found inside <body>', listCell(stringsAt(e, 'tags'))),
  },
  META_VIEWPORT_MISSING: NOTHING,
  META_VIEWPORT_NO_ZOOM: {
    kind: 'VALUES',
    keys: ['viewport', 'reason'],
    present: (e, view) => {
      view.fact('Viewport', textCell(stringAt(e, 'viewport')));
      view.fact('Blocks zooming with', textCell(stringAt(e, 'reason')));
    },
  },
  META_LANG_MISSING: NOTHING,
  META_LANG_INVALID: {
    kind: 'VALUES',
    keys: ['lang'],
    present: (e, view) => view.fact('lang attribute', textCell(stringAt(e, 'lang'))),
  },
  META_CHARSET_MISSING: NOTHING,
  META_DOCTYPE_MISSING: {
    kind: 'VALUES',
    keys: ['doctype'],
    // null (no doctype at all) restates the failure; a doctype of another kind is worth showing.
    present: (e, view) => {
      const doctype = stringAt(e, 'doctype');
      if (doctype) view.fact('Doctype', textCell(`<${doctype}>`));
    },
  },
  META_FAVICON_MISSING: {
    kind: 'VALUES',
    keys: ['status'],
    // null: /favicon.ico was not fetched (the home page was judged alone), which tells nothing.
    present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, false)),
  },
  META_OPEN_GRAPH_MISSING: NOTHING,
  META_TWITTER_CARD_MISSING: NOTHING,
  META_JSONLD_INVALID: {
    kind: 'VALUES',
    keys: ['count', 'errors'],
    present: (e, view) =>
      listTable(view, 'JSON-LD blocks that do not parse', 'Parse error', stringsAt(e, 'errors'), numberAt(e, 'count')),
  },
  META_JSONLD_REQUIRED_MISSING: {
    kind: 'VALUES',
    keys: ['entities'],
    present: (e, view) =>
      view.table(
        'Entities missing required properties',
        ['Type', 'Missing'],
        recordsAt(e, 'entities').map((entity) => [
          textCell(stringAt(entity, 'type') ?? 'Unknown type'),
          listCell(stringsAt(entity, 'missing')) ?? { text: 'Unknown' },
        ]),
      ),
  },
  META_HREFLANG_INVALID: {
    kind: 'VALUES',
    keys: ['values'],
    present: (e, view) => view.fact('Invalid hreflang values', listCell(stringsAt(e, 'values'))),
  },
  META_HREFLANG_RELATIVE: {
    kind: 'VALUES',
    keys: ['hrefs'],
    present: (e, view) =>
      view.table(
        'Relative hreflang URLs',
        ['As written', 'Resolves to'],
        stringsAt(e, 'hrefs').map((href) => [writtenCell(href), urlCell(href, view.pageUrl)]),
      ),
  },
  META_HREFLANG_NO_SELF: {
    kind: 'VALUES',
    keys: ['url'],
    // The page's final URL: only news when a redirect made it differ from the occurrence's URL.
    present: (e, view) => {
      const url = stringAt(e, 'url');
      if (url && !view.isPage(url)) view.fact('URL missing from the set', urlCell(url, view.pageUrl));
    },
  },
  META_HREFLANG_NO_RETURN: {
    kind: 'LINKS',
    keys: ['targetsWithoutReturn'],
    present: (e, view) =>
      view.table(
        'Alternates that do not link back',
        ['Source page', 'Alternate page'],
        stringsAt(e, 'targetsWithoutReturn').map((url) => [view.page(), urlCell(url, view.pageUrl)]),
      ),
  },
  META_HREFLANG_NO_X_DEFAULT: NOTHING,
  META_JSONLD_NO_CONTEXT: {
    kind: 'VALUES',
    keys: ['count', 'contexts'],
    present: (e, view) =>
      listTable(
        view,
        'JSON-LD objects without a schema.org @context',
        '@context as written',
        stringsOrNull(e, 'contexts').map((context) => context ?? 'None'),
        numberAt(e, 'count'),
      ),
  },
  META_JSONLD_TYPE_MISSING: {
    kind: 'VALUES',
    keys: ['count', 'entities'],
    present: (e, view) =>
      listTable(
        view,
        'Entities without @type',
        'Properties it has',
        recordsAt(e, 'entities').map((entity) => stringsAt(entity, 'keys').join(', ') || 'None'),
        numberAt(e, 'count'),
      ),
  },
  META_JSONLD_ORGANIZATION_INCOMPLETE: { kind: 'VALUES', keys: ['entities'], present: entityProblemTable },
  META_JSONLD_ARTICLE_INCOMPLETE: {
    kind: 'VALUES',
    keys: ['entities'],
    present: (e, view) =>
      view.table(
        'Articles missing recommended properties',
        ['Type', 'Missing'],
        recordsAt(e, 'entities').map((entity) => [
          textCell(stringAt(entity, 'type') ?? 'Article'),
          listCell(stringsAt(entity, 'missing')) ?? { text: 'Unknown' },
        ]),
      ),
  },
  META_JSONLD_PRODUCT_NO_OFFER: {
    kind: 'VALUES',
    keys: ['count', 'products'],
    present: (e, view) =>
      listTable(
        view,
        'Products without offers, review or aggregateRating',
        'Product name',
        stringsOrNull(e, 'products').map((name) => name ?? 'No name'),
        numberAt(e, 'count'),
      ),
  },
  META_JSONLD_BREADCRUMB_INVALID: { kind: 'VALUES', keys: ['entities'], present: entityProblemTable },
  META_JSONLD_FAQ_INVALID: { kind: 'VALUES', keys: ['entities'], present: entityProblemTable },
  META_JSONLD_DATE_INVALID: {
    kind: 'VALUES',
    keys: ['count', 'dates'],
    present: (e, view) =>
      view.table(
        'Dates that are not ISO 8601',
        ['Type', 'Property', 'Value'],
        recordsAt(e, 'dates').map((date) => [
          textCell(stringAt(date, 'type') ?? 'Thing'),
          textCell(stringAt(date, 'property') ?? ''),
          writtenCell(stringAt(date, 'value') ?? ''),
        ]),
        numberAt(e, 'count') ?? undefined,
      ),
  },
  META_HREFLANG_DUPLICATE: {
    kind: 'LINKS',
    keys: ['duplicates'],
    present: (e, view) =>
      view.table(
        'Hreflang values pointing to several URLs',
        ['hreflang', 'URL'],
        recordsAt(e, 'duplicates').flatMap((duplicate) =>
          stringsAt(duplicate, 'urls').map((url) => [
            textCell(stringAt(duplicate, 'lang') ?? ''),
            urlCell(url, view.pageUrl),
          ]),
        ),
      ),
  },
  META_HREFLANG_TO_BROKEN: {
    kind: 'LINKS',
    keys: ['targets'],
    present: (e, view) => targetTable(view, 'Hreflang alternates that do not answer 200', 'hreflang', e),
  },
  META_HREFLANG_TO_NON_INDEXABLE: {
    kind: 'LINKS',
    keys: ['targets'],
    present: (e, view) => targetTable(view, 'Hreflang alternates that cannot be indexed', 'hreflang', e),
  },
  META_HREFLANG_LANG_MISMATCH: {
    kind: 'VALUES',
    keys: ['lang', 'hreflang'],
    present: (e, view) => {
      view.fact('<html lang>', textCell(stringAt(e, 'lang')));
      view.fact('Own hreflang entry', listCell(stringsAt(e, 'hreflang')));
    },
  },
  META_VIEWPORT_NOT_RESPONSIVE: {
    kind: 'VALUES',
    keys: ['viewport', 'reason'],
    present: (e, view) => {
      view.fact('Viewport', textCell(stringAt(e, 'viewport')));
      view.fact('Problem', textCell(stringAt(e, 'reason')));
    },
  },
  META_VIEWPORT_MULTIPLE: {
    kind: 'VALUES',
    keys: ['count'],
    present: (e, view) => view.fact('Viewport tags', numberCell(numberAt(e, 'count'))),
  },
  META_OG_INCOMPLETE: {
    kind: 'VALUES',
    keys: ['missing'],
    present: (e, view) => view.fact('Missing', listCell(stringsAt(e, 'missing'))),
  },
  META_OG_IMAGE_RELATIVE: {
    kind: 'VALUES',
    keys: ['images'],
    present: (e, view) =>
      view.table(
        'Relative Open Graph image URLs',
        ['Property', 'As written', 'Resolves to'],
        recordsAt(e, 'images').map((image) => {
          const value = stringAt(image, 'value') ?? '';
          return [
            textCell(stringAt(image, 'property') ?? 'og:image'),
            writtenCell(value),
            urlCell(value, view.pageUrl),
          ];
        }),
      ),
  },
  META_OG_URL_MISMATCH: {
    kind: 'VALUES',
    keys: ['ogUrl', 'canonical'],
    present: (e, view) => {
      const ogUrl = stringAt(e, 'ogUrl');
      const canonical = stringAt(e, 'canonical');
      if (ogUrl) view.fact('og:url', urlCell(ogUrl, view.pageUrl));
      if (canonical) view.fact('Canonical', urlCell(canonical, view.pageUrl));
    },
  },
  META_TWITTER_CARD_INVALID: {
    kind: 'VALUES',
    keys: ['card'],
    present: (e, view) => view.fact('twitter:card', textCell(stringAt(e, 'card'))),
  },

  // CONTENT
  CONTENT_H1_MISSING: NOTHING,
  CONTENT_H1_MULTIPLE: {
    kind: 'VALUES',
    keys: ['count', 'headings'],
    present: (e, view) => listTable(view, 'H1 headings', 'Heading', stringsAt(e, 'headings'), numberAt(e, 'count')),
  },
  CONTENT_HEADING_SKIP: {
    kind: 'VALUES',
    keys: ['from', 'to', 'text'],
    present: (e, view) => {
      const from = stringAt(e, 'from');
      const to = stringAt(e, 'to');
      if (from && to) view.fact('Skipped level', textCell(`${from} followed by ${to}`));
      view.fact('Heading', textCell(stringAt(e, 'text')));
    },
  },
  CONTENT_THIN: {
    kind: 'VALUES',
    keys: ['words'],
    present: (e, view) => view.fact('Visible text', wordsCell(numberAt(e, 'words'))),
  },
  CONTENT_DUPLICATE: {
    kind: 'DUPLICATES',
    keys: ['words', 'duplicates', 'sameAs'],
    present: (e, view) => {
      view.fact('Visible text', wordsCell(numberAt(e, 'words')));
      duplicateTable(view, 'Other pages with the same text', e);
    },
  },
  CONTENT_NEAR_DUPLICATE: {
    kind: 'DUPLICATES',
    // hammingDistance: dropped, the similarity is computed from it (share of equal SimHash bits).
    keys: ['similarTo', 'similarity', 'hammingDistance'],
    present: (e, view) => {
      const partner = stringAt(e, 'similarTo');
      const similarity = numberAt(e, 'similarity');
      if (partner === null) return;
      view.table(
        'Similar page',
        ['Page', 'Similarity'],
        [[urlCell(partner, view.pageUrl), { text: similarity === null ? 'Unknown' : `${formatNumber(similarity)}%` }]],
      );
    },
  },
  CONTENT_IMAGE_ALT_MISSING: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    present: (e, view) =>
      view.table(
        'Images without alt text',
        ['Image'],
        stringsAt(e, 'images').map((src) => [urlCell(src, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  CONTENT_IMAGE_ALT_TOO_LONG: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    present: (e, view) =>
      view.table(
        'Images with long alt text',
        ['Image', 'Alt text length'],
        recordsAt(e, 'images').map((image) => [
          urlCell(stringAt(image, 'src') ?? '', view.pageUrl),
          { text: charactersText(numberAt(image, 'length')) },
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  CONTENT_IMAGE_BROKEN: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    // Each image's `kind` is always "image" here: dropped.
    present: (e, view) =>
      view.table(
        'Broken images',
        ['Image', 'Status'],
        recordsAt(e, 'images').map((image) => [
          urlCell(stringAt(image, 'url') ?? '', view.pageUrl),
          findingStatus(image),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  CONTENT_LINK_TEXT_GENERIC: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) =>
      view.table(
        'Links with generic text',
        ['Source page', 'Target', 'Anchor text'],
        recordsAt(e, 'links').map((link) => [
          view.page(),
          urlCell(stringAt(link, 'href') ?? '', view.pageUrl),
          anchorCell(stringAt(link, 'text')),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  CONTENT_DUPLICATE_ID: {
    kind: 'VALUES',
    keys: ['count', 'sample'],
    present: (e, view) => {
      const ids = stringsAt(e, 'sample');
      view.fact('Ids used more than once', listCell(ids));
      // `count` counts every element that reused an id: news only beyond one per id listed.
      const count = numberAt(e, 'count');
      if (count !== null && count > ids.length) view.fact('Elements reusing an id', { text: formatNumber(count) });
    },
  },
  CONTENT_LOW_TEXT_RATIO: {
    kind: 'VALUES',
    keys: ['ratio', 'textBytes', 'htmlBytes'],
    present: (e, view) => {
      const ratio = numberAt(e, 'ratio');
      if (ratio !== null) view.fact('Text-to-HTML ratio', { text: `${formatNumber(ratio * 100)}%` });
      const text = numberAt(e, 'textBytes');
      view.fact('Visible text', text === 0 ? { text: 'None' } : bytesCell(text));
      view.fact('HTML size', bytesCell(numberAt(e, 'htmlBytes')));
    },
  },
  CONTENT_IMAGE_ALT_FILENAME: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    present: (e, view) =>
      view.table(
        'Images whose alt text is a file name',
        ['Image', 'Alt text'],
        recordsAt(e, 'images').map((image) => [
          urlCell(stringAt(image, 'src') ?? '', view.pageUrl),
          textCell(stringAt(image, 'alt') ?? ''),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  CONTENT_IMAGE_EMPTY_SRC: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    // The images have no URL to show: their alt text is what tells them apart.
    present: (e, view) =>
      view.table(
        'Images without a source',
        ['Alt text'],
        recordsAt(e, 'images').map((image) => [textCell(stringAt(image, 'alt') ?? '(no alt attribute)')]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  CONTENT_H1_DUPLICATE: {
    kind: 'DUPLICATES',
    keys: ['h1', 'duplicates', 'sameAs'],
    present: (e, view) => {
      view.fact('H1', textCell(stringAt(e, 'h1')));
      duplicateTable(view, 'Other pages with this h1', e);
    },
  },
  CONTENT_PLACEHOLDER_TEXT: {
    kind: 'VALUES',
    keys: ['text'],
    present: (e, view) => view.fact('Placeholder text', textCell(stringAt(e, 'text'))),
  },

  // LINKS
  LINKS_INTERNAL_BROKEN: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => brokenLinkTable(view, 'Broken internal links', e),
  },
  LINKS_EXTERNAL_BROKEN: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => brokenLinkTable(view, 'Broken external links', e),
  },
  LINKS_TO_REDIRECT: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => linkTable(view, 'Links to URLs that redirect', e),
  },
  LINKS_REDIRECT_CHAIN: {
    kind: 'REDIRECTS',
    keys: ['hops', 'chain'],
    present: (e, view) => redirectTable(view, e),
  },
  LINKS_REDIRECT_LOOP: { kind: 'REDIRECTS', keys: ['chain'], present: (e, view) => redirectTable(view, e) },
  // `inlinks` is always 0 for an orphan: it restates the failure.
  LINKS_ORPHAN: { kind: 'VALUES', keys: ['inlinks'] },
  LINKS_DEAD_END: NOTHING,
  LINKS_TOO_MANY: {
    kind: 'VALUES',
    keys: ['count'],
    present: (e, view) => view.fact('Links on the page', numberCell(numberAt(e, 'count'))),
  },
  LINKS_INTERNAL_NOFOLLOW: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => linkTable(view, 'Internal links with rel=nofollow', e),
  },
  LINKS_HTTPS_TO_HTTP: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => linkTable(view, 'Links to http:// URLs', e),
  },
  LINKS_UNCRAWLABLE: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) =>
      view.table(
        'Links without a crawlable href',
        ['Source page', 'href', 'Anchor text'],
        recordsAt(e, 'links').map((link) => {
          const href = stringAt(link, 'href') ?? '';
          return [
            view.page(),
            href.trim() === '' ? { text: '(empty)' } : writtenCell(href),
            anchorCell(stringAt(link, 'text')),
          ];
        }),
        numberAt(e, 'count') ?? 0,
      ),
  },
  LINKS_DEPTH_HIGH: {
    kind: 'VALUES',
    keys: ['depth'],
    present: (e, view) => view.fact('Clicks from the start page', numberCell(numberAt(e, 'depth'))),
  },
  LINKS_LOCALHOST: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => linkTable(view, 'Links to localhost', e),
  },
  LINKS_TEMPORARY_REDIRECT: {
    kind: 'REDIRECTS',
    keys: ['status', 'from', 'to'],
    present: (e, view) => {
      const from = stringAt(e, 'from');
      const to = stringAt(e, 'to');
      if (from === null || to === null) return;
      view.table(
        'Temporary redirect',
        ['From', 'Status', 'To'],
        [
          [
            urlCell(from, view.pageUrl),
            statusCell(numberAt(e, 'status'), null, false) ?? { text: '' },
            urlCell(to, view.pageUrl),
          ],
        ],
      );
    },
  },
  LINKS_NO_ANCHOR_TEXT: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) =>
      view.table(
        'Links without text',
        ['Target'],
        stringsAt(e, 'links').map((url) => [urlCell(url, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  LINKS_TO_NON_CANONICAL: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) =>
      view.table(
        'Links to non-canonical URLs',
        ['Source page', 'Target', 'Its canonical URL'],
        recordsAt(e, 'links').map((link) => [
          view.page(),
          urlCell(stringAt(link, 'url') ?? '', view.pageUrl),
          urlCell(stringAt(link, 'canonical') ?? '', view.pageUrl),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  LINKS_TO_NOINDEX: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => linkTable(view, 'Links to noindex pages', e),
  },

  LINKS_PAGINATION_BROKEN: {
    kind: 'LINKS',
    keys: ['targets'],
    present: (e, view) => targetTable(view, 'Pagination links that do not answer 200', 'rel', e),
  },
  LINKS_PAGINATION_NOINDEX: {
    kind: 'VALUES',
    keys: ['sources', 'links'],
    present: (e, view) => {
      view.fact('noindex set by', listCell(stringsAt(e, 'sources').map((source) => NOINDEX_SOURCES[source] ?? source)));
      view.table(
        'Pagination links of the page',
        ['rel', 'URL'],
        recordsAt(e, 'links').map((link) => [
          textCell(stringAt(link, 'rel') ?? ''),
          urlCell(stringAt(link, 'url') ?? '', view.pageUrl),
        ]),
      );
    },
  },
  // TECHNICAL
  TECH_STATUS_4XX: { kind: 'VALUES', keys: ['status'], present: httpStatusFact },
  TECH_STATUS_5XX: { kind: 'VALUES', keys: ['status'], present: httpStatusFact },
  TECH_TIMEOUT: NOTHING,
  PAGE_FETCH_FAILED: {
    kind: 'VALUES',
    keys: ['error'],
    present: (e, view) => view.fact('Error', textCell(stringAt(e, 'error'))),
  },
  TECH_NOINDEX: {
    kind: 'HEADERS',
    keys: ['sources', 'meta', 'header'],
    present: (e, view) => {
      view.fact('Noindex set by', listCell(stringsAt(e, 'sources').map((source) => NOINDEX_SOURCES[source] ?? source)));
      view.table(
        'Robots directives',
        ['Set in', 'Value'],
        [
          ...stringsAt(e, 'meta').map((value) => [{ text: '<meta name="robots">' }, textCell(value)]),
          ...stringsAt(e, 'header').map((value) => [{ text: 'X-Robots-Tag header' }, textCell(value)]),
        ],
      );
    },
  },
  TECH_NOINDEX_SITEWIDE: {
    kind: 'VALUES',
    keys: ['noindexPages', 'htmlPages', 'share'],
    present: (e, view) => {
      const noindex = numberAt(e, 'noindexPages');
      const html = numberAt(e, 'htmlPages');
      const share = numberAt(e, 'share');
      if (noindex === null || html === null) return;
      const percent = share === null ? '' : ` (${formatNumber(share * 100)}%)`;
      view.fact('Noindex pages', { text: `${formatNumber(noindex)} of ${formatNumber(html)} HTML pages${percent}` });
    },
  },
  TECH_ROBOTS_MISSING: {
    kind: 'VALUES',
    keys: ['status'],
    present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, false)),
  },
  TECH_ROBOTS_UNREACHABLE: {
    kind: 'VALUES',
    keys: ['status', 'timedOut'],
    present: (e, view) =>
      view.fact('Status', statusCell(numberAt(e, 'status'), e.timedOut === true ? 'Timed out' : null, true)),
  },
  // `rule` is always "User-agent: * / Disallow: /", the check's own definition.
  TECH_ROBOTS_BLOCKS_ALL: { kind: 'VALUES', keys: ['rule'] },
  TECH_ROBOTS_INVALID: {
    kind: 'VALUES',
    keys: ['errors'],
    present: (e, view) => listTable(view, 'Problems in robots.txt', 'Problem', stringsAt(e, 'errors'), null),
  },
  TECH_BLOCKED_BY_ROBOTS: {
    kind: 'LINKS',
    keys: ['count', 'links'],
    present: (e, view) => linkTable(view, 'Links robots.txt disallows', e),
  },
  TECH_SITEMAP_MISSING: {
    kind: 'VALUES',
    keys: ['status'],
    present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, false)),
  },
  TECH_SITEMAP_INVALID: {
    kind: 'VALUES',
    keys: ['reasons', 'errors'],
    present: (e, view) => {
      view.fact('Problems', listCell(stringsAt(e, 'reasons').map(capitalize), '; '));
      listTable(view, 'Errors', 'Error', stringsAt(e, 'errors'), null);
    },
  },
  TECH_SITEMAP_NON_INDEXABLE: {
    kind: 'VALUES',
    keys: ['reason', 'status', 'finalUrl'],
    present: (e, view) => {
      const reason = stringAt(e, 'reason');
      if (reason) view.fact('Why', { text: NON_INDEXABLE_REASONS[reason] ?? capitalize(reason) });
      const status = numberAt(e, 'status');
      // Status 0: no response, which the reason already says.
      if (status !== null && status > 0) view.fact('HTTP status', statusCell(status, null, false));
      const finalUrl = stringAt(e, 'finalUrl');
      if (finalUrl && !view.isPage(finalUrl)) view.fact('Final URL', urlCell(finalUrl, view.pageUrl));
    },
  },
  TECH_SITEMAP_BLOCKED_BY_ROBOTS: {
    kind: 'VALUES',
    // `rule` is always "disallowed by robots.txt": the check's own definition.
    keys: ['rule', 'robotsTxt'],
    present: (e, view) => {
      const robots = stringAt(e, 'robotsTxt');
      if (robots) view.fact('Disallowed by', urlCell(robots, view.pageUrl));
    },
  },
  TECH_CANONICAL_MULTIPLE: {
    kind: 'VALUES',
    keys: ['count', 'canonicals'],
    present: (e, view) =>
      view.table(
        'Canonical URLs declared',
        ['Canonical URL'],
        stringsAt(e, 'canonicals').map((href) => [urlCell(href, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  TECH_CANONICAL_RELATIVE: {
    kind: 'VALUES',
    keys: ['href'],
    present: (e, view) => {
      const href = stringAt(e, 'href');
      if (href === null) return;
      view.fact('Canonical as written', writtenCell(href));
      view.fact('Resolves to', urlCell(href, view.pageUrl));
    },
  },
  TECH_CANONICAL_MISMATCH: {
    kind: 'HEADERS',
    keys: ['html', 'header'],
    present: (e, view) => {
      const rows: EvidenceCell[][] = [];
      const html = stringAt(e, 'html');
      const header = stringAt(e, 'header');
      if (html) rows.push([{ text: '<link rel="canonical"> in the HTML' }, urlCell(html, view.pageUrl)]);
      if (header) rows.push([{ text: 'Link header' }, urlCell(header, view.pageUrl)]);
      view.table('Canonical URLs', ['Declared in', 'Canonical URL'], rows);
    },
  },
  TECH_CANONICAL_MISSING: {
    kind: 'DUPLICATES',
    keys: ['sameAs'],
    present: (e, view) =>
      view.table(
        'The same page also answers at',
        ['URL'],
        stringsAt(e, 'sameAs').map((url) => [urlCell(url, view.pageUrl)]),
      ),
  },
  TECH_CANONICAL_TO_BROKEN: {
    kind: 'LINKS',
    keys: ['canonical', 'reason'],
    present: (e, view) => {
      const canonical = stringAt(e, 'canonical');
      if (canonical === null) return;
      view.table(
        'Canonical target',
        ['Source page', 'Canonical URL', 'Problem'],
        [[view.page(), urlCell(canonical, view.pageUrl), { text: canonicalProblem(stringAt(e, 'reason')) }]],
      );
    },
  },
  TECH_CANONICAL_INVALID: {
    kind: 'VALUES',
    keys: ['href', 'count'],
    present: (e, view) => {
      const href = stringAt(e, 'href');
      if (href === null) return;
      view.fact('Canonical as written', writtenCell(href));
      const count = numberAt(e, 'count');
      if (count !== null && count > 1) view.fact('Canonicals that are not web URLs', numberCell(count));
    },
  },
  TECH_CANONICAL_OTHER_HOST: {
    kind: 'VALUES',
    keys: ['canonical', 'host'],
    present: (e, view) => {
      const canonical = stringAt(e, 'canonical');
      if (canonical !== null) view.fact('Canonical URL', urlCell(canonical, view.pageUrl));
      const host = stringAt(e, 'host');
      if (host !== null) view.fact('Host it names', textCell(host));
    },
  },
  TECH_URL_UPPERCASE: {
    kind: 'VALUES',
    keys: ['path'],
    present: (e, view) => view.fact('Path', textCell(stringAt(e, 'path'))),
  },
  TECH_URL_UNDERSCORE: {
    kind: 'VALUES',
    keys: ['path'],
    present: (e, view) => view.fact('Path', textCell(stringAt(e, 'path'))),
  },
  TECH_URL_TOO_LONG: {
    kind: 'VALUES',
    keys: ['length'],
    present: (e, view) => view.fact('URL length', optional(charactersText, numberAt(e, 'length'))),
  },
  TECH_HTTP_PAGE: {
    kind: 'VALUES',
    keys: ['url'],
    // The final URL: only news when a redirect made it differ from the occurrence's URL.
    present: (e, view) => {
      const url = stringAt(e, 'url');
      if (url && !view.isPage(url)) view.fact('Served at', urlCell(url, view.pageUrl));
    },
  },
  TECH_MIXED_CONTENT: {
    kind: 'RESOURCES',
    keys: ['count', 'resources'],
    present: (e, view) =>
      view.table(
        'Resources loaded over http://',
        ['Resource', 'Element'],
        recordsAt(e, 'resources').map((resource) => [
          urlCell(stringAt(resource, 'url') ?? '', view.pageUrl),
          textCell(stringAt(resource, 'tag') ?? ''),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  TECH_RESOURCE_BROKEN: {
    kind: 'RESOURCES',
    keys: ['count', 'resources'],
    present: (e, view) => resourceTable(view, 'Broken resources', 'Status', e),
  },
  TECH_RESOURCE_PRIVATE_ADDRESS: {
    kind: 'RESOURCES',
    keys: ['count', 'resources'],
    present: (e, view) => resourceTable(view, 'Resources on private addresses', 'Reason', e),
  },
  TECH_HSTS_MISSING: {
    kind: 'HEADERS',
    // A null header is the failure itself ("sends no Strict-Transport-Security"): nothing to add.
    keys: ['header', 'reason'],
    present: (e, view) => {
      const header = stringAt(e, 'header');
      if (header !== null)
        view.table('Response header', ['Header', 'Value'], [[{ text: 'Strict-Transport-Security' }, textCell(header)]]);
      view.fact('Problem', optional(hstsProblem, stringAt(e, 'reason')));
    },
  },
  TECH_HTML_TOO_LARGE: {
    kind: 'VALUES',
    keys: ['bytes', 'analysedBytes'],
    present: (e, view) => {
      const bytes = numberAt(e, 'bytes');
      const analysed = numberAt(e, 'analysedBytes');
      if (analysed === null) return view.fact('HTML size', bytesCell(bytes));
      // Over the crawler's cap without a declared length, `bytes` is only what was read.
      view.fact(
        'HTML size',
        bytes !== null && bytes > analysed ? bytesCell(bytes) : { text: `Over ${formatBytes(analysed)}` },
      );
      view.fact('Analysed', { text: `The first ${formatBytes(analysed)} only` });
    },
  },
  TECH_AI_SEARCH_BLOCKED: {
    kind: 'VALUES',
    keys: ['agents'],
    present: (e, view) => view.fact('Blocked crawlers', listCell(stringsAt(e, 'agents'))),
  },
  TECH_LLMS_TXT_MISSING: {
    kind: 'VALUES',
    keys: ['status'],
    present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, true)),
  },
  TECH_CSP_MISSING: {
    kind: 'HEADERS',
    keys: ['reportOnly'],
    present: (e, view) => {
      if (e.reportOnly === true)
        view.fact('Sent instead', { text: 'Content-Security-Policy-Report-Only (reports, blocks nothing)' });
    },
  },
  TECH_CONTENT_TYPE_OPTIONS_MISSING: {
    kind: 'HEADERS',
    // A null header is the failure itself (the header is absent).
    keys: ['header'],
    present: (e, view) => {
      const header = stringAt(e, 'header');
      if (header !== null)
        view.table('Response header', ['Header', 'Value'], [[{ text: 'X-Content-Type-Options' }, textCell(header)]]);
    },
  },
  TECH_CLICKJACKING_UNPROTECTED: {
    kind: 'HEADERS',
    keys: ['reason', 'header'],
    present: (e, view) => {
      const reason = stringAt(e, 'reason');
      if (reason !== null) view.fact('Problem', { text: FRAME_PROBLEMS[reason] ?? capitalize(reason) });
      view.fact('Header value', textCell(stringAt(e, 'header')));
    },
  },
  TECH_HSTS_SHORT: {
    kind: 'HEADERS',
    keys: ['header', 'maxAge'],
    present: (e, view) => {
      const header = stringAt(e, 'header');
      if (header !== null)
        view.table('Response header', ['Header', 'Value'], [[{ text: 'Strict-Transport-Security' }, textCell(header)]]);
      const maxAge = numberAt(e, 'maxAge');
      if (maxAge !== null)
        view.fact('max-age', { text: `${formatNumber(maxAge)} s (${formatNumber(maxAge / 86_400)} days)` });
    },
  },
  TECH_COOKIE_INSECURE: {
    kind: 'HEADERS',
    keys: ['count', 'cookies'],
    present: (e, view) =>
      listTable(view, 'Cookies set without Secure', 'Cookie', stringsAt(e, 'cookies'), numberAt(e, 'count')),
  },
  TECH_META_REFRESH: {
    kind: 'REDIRECTS',
    keys: ['content', 'delay', 'target'],
    present: (e, view) => {
      view.fact('<meta http-equiv="refresh"> content', textCell(stringAt(e, 'content')));
      const delay = numberAt(e, 'delay');
      if (delay !== null) view.fact('Delay', { text: delay === 0 ? 'none (at once)' : `${formatNumber(delay)} s` });
      const target = stringAt(e, 'target');
      if (target !== null) view.fact('Goes to', urlCell(target, view.pageUrl));
    },
  },
  TECH_SOFT_404: {
    kind: 'VALUES',
    keys: ['heading', 'words'],
    present: (e, view) => {
      view.fact('Says', textCell(stringAt(e, 'heading')));
      view.fact('Words on the page', wordsCell(numberAt(e, 'words')));
    },
  },
  TECH_URL_DOUBLE_SLASH: {
    kind: 'VALUES',
    keys: ['path'],
    present: (e, view) => view.fact('Path', textCell(stringAt(e, 'path'))),
  },
  TECH_URL_NON_ASCII: {
    kind: 'VALUES',
    keys: ['path', 'decoded'],
    present: (e, view) => {
      view.fact('Path', textCell(stringAt(e, 'path')));
      view.fact('Decoded', textCell(stringAt(e, 'decoded')));
    },
  },
  TECH_URL_SESSION_ID: {
    kind: 'VALUES',
    keys: ['parameter'],
    present: (e, view) => view.fact('Session parameter', textCell(stringAt(e, 'parameter'))),
  },
  TECH_CLIENT_RENDERED_SUSPECTED: {
    kind: 'VALUES',
    keys: ['root', 'markers', 'words'],
    present: (e, view) => {
      const root = stringAt(e, 'root');
      if (root) view.fact('Empty app root', textCell(root));
      view.fact('Framework markers', listCell(stringsAt(e, 'markers')));
      const words = numberAt(e, 'words');
      view.fact('Visible text', words === 0 ? { text: 'None' } : wordsCell(words));
    },
  },

  TECH_AMP_LINK_BROKEN: {
    kind: 'LINKS',
    keys: ['targets'],
    present: (e, view) => targetTable(view, 'AMP version that does not answer 200', 'Link', e),
  },
  TECH_AMP_NO_CANONICAL: NOTHING,
  // RENDERING (browser mode): each side as the raw HTML and the rendered page have it
  RENDER_TITLE_CHANGED: {
    kind: 'VALUES',
    keys: ['raw', 'rendered'],
    present: (e, view) =>
      rawAndRendered(view, 'Title', textCell(stringAt(e, 'raw')), textCell(stringAt(e, 'rendered'))),
  },
  RENDER_TITLE_ONLY_RENDERED: {
    kind: 'VALUES',
    keys: ['rendered'],
    present: (e, view) => rawAndRendered(view, 'Title', null, textCell(stringAt(e, 'rendered'))),
  },
  RENDER_DESCRIPTION_CHANGED: {
    kind: 'VALUES',
    keys: ['raw', 'rendered'],
    present: (e, view) =>
      rawAndRendered(view, 'Meta description', textCell(stringAt(e, 'raw')), textCell(stringAt(e, 'rendered'))),
  },
  RENDER_CANONICAL_CHANGED: {
    kind: 'VALUES',
    keys: ['raw', 'rendered'],
    present: (e, view) => {
      const cell = (key: string) => {
        const url = stringAt(e, key);
        return url === null ? null : urlCell(url, view.pageUrl);
      };
      rawAndRendered(view, 'Canonical URL', cell('raw'), cell('rendered'));
    },
  },
  RENDER_NOINDEX_CHANGED: {
    kind: 'HEADERS',
    keys: ['raw', 'rendered', 'rawMeta', 'renderedMeta'],
    present: (e, view) => robotsChange(view, 'Indexing', e),
  },
  RENDER_NOFOLLOW_CHANGED: {
    kind: 'HEADERS',
    keys: ['raw', 'rendered', 'rawMeta', 'renderedMeta'],
    present: (e, view) => robotsChange(view, 'Following', e),
  },
  RENDER_H1_CHANGED: {
    kind: 'VALUES',
    keys: ['raw', 'rendered'],
    present: (e, view) =>
      rawAndRendered(view, 'H1', listCell(stringsAt(e, 'raw'), ' | '), listCell(stringsAt(e, 'rendered'), ' | ')),
  },
  RENDER_LINKS_ONLY_RENDERED: {
    kind: 'LINKS',
    keys: ['count', 'links', 'rawLinks', 'renderedLinks'],
    present: (e, view) => {
      rawAndRendered(
        view,
        'Internal links',
        numberCell(numberAt(e, 'rawLinks')),
        numberCell(numberAt(e, 'renderedLinks')),
      );
      linkTable(view, 'Internal links only in the rendered page', e);
    },
  },
  RENDER_CONTENT_NEEDS_JS: {
    kind: 'VALUES',
    keys: ['rawWords', 'renderedWords'],
    present: (e, view) =>
      rawAndRendered(view, 'Visible text', wordsCell(numberAt(e, 'rawWords')), wordsCell(numberAt(e, 'renderedWords'))),
  },
  RENDER_RESOURCE_BLOCKED_BY_ROBOTS: {
    kind: 'RESOURCES',
    keys: ['count', 'resources'],
    present: (e, view) =>
      view.table(
        'Resources robots.txt disallows',
        ['Resource'],
        stringsAt(e, 'resources').map((url) => [urlCell(url, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  RENDER_CONSOLE_ERRORS: {
    kind: 'VALUES',
    keys: ['count', 'errors'],
    present: (e, view) => listTable(view, 'Console errors', 'Error', stringsAt(e, 'errors'), numberAt(e, 'count')),
  },
  RENDER_FAILED_REQUESTS: {
    kind: 'RESOURCES',
    keys: ['count', 'requests'],
    present: (e, view) =>
      view.table(
        'Failed requests',
        ['Request', 'Reason'],
        recordsAt(e, 'requests').map((request) => [
          urlCell(stringAt(request, 'url') ?? '', view.pageUrl),
          textCell(stringAt(request, 'reason') ?? 'Unknown'),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },

  // PERFORMANCE
  PERF_LCP: metricPresenter('lcpMs', 'Largest Contentful Paint', formatMs),
  PERF_CLS: metricPresenter('cls', 'Cumulative Layout Shift', (value) => formatNumber(value, 3)),
  PERF_INP: metricPresenter('inpMs', 'Interaction to Next Paint', formatMs),
  PERF_TBT: metricPresenter('tbtMs', 'Total Blocking Time', formatMs),
  PERF_FCP: metricPresenter('fcpMs', 'First Contentful Paint', formatMs),
  PERF_TTFB: metricPresenter('ttfbMs', 'Time to first byte', formatMs),
  PERF_DOM_SIZE: metricPresenter('elements', 'DOM elements', (value) => formatNumber(value)),
  PERF_PAGE_WEIGHT: metricPresenter('bytes', 'Page weight', formatBytes),
  PERF_IMAGE_TOO_LARGE: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    present: (e, view) =>
      view.table(
        'Large images',
        ['Image', 'Size', 'Dimensions'],
        recordsAt(e, 'images').map((image) => [
          urlCell(stringAt(image, 'url') ?? '', view.pageUrl),
          bytesCell(numberAt(image, 'bytes')) ?? { text: 'Unknown' },
          dimensionsCell(image),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  PERF_IMAGE_NO_DIMENSIONS: {
    kind: 'IMAGES',
    keys: ['count', 'images', 'declared'],
    present: (e, view) => {
      // `declared` (what each image does declare) came later: older evidence lists the images only.
      const declared = recordsAt(e, 'declared');
      view.table(
        'Images without width and height',
        declared.length ? ['Image', 'Dimensions'] : ['Image'],
        declared.length
          ? declared.map((image) => [urlCell(stringAt(image, 'url') ?? '', view.pageUrl), dimensionsCell(image)])
          : stringsAt(e, 'images').map((src) => [urlCell(src, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      );
    },
  },
  PERF_NO_COMPRESSION: {
    kind: 'RESOURCES',
    keys: ['count', 'urls'],
    present: (e, view) =>
      view.table(
        'Responses sent uncompressed',
        ['URL'],
        stringsAt(e, 'urls').map((url) => [urlCell(url, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  PERF_RENDER_BLOCKING: {
    kind: 'RESOURCES',
    keys: ['scripts', 'stylesheets', 'resources'],
    present: (e, view) => {
      view.fact('Blocking scripts', numberCell(numberAt(e, 'scripts')));
      view.fact('Blocking stylesheets', numberCell(numberAt(e, 'stylesheets')));
      // The sample holds src/href as written (often relative).
      view.table(
        'Render-blocking resources',
        ['Resource'],
        stringsAt(e, 'resources').map((href) => [urlCell(href, view.pageUrl)]),
      );
    },
  },
  PERF_NO_CACHE_HEADERS: {
    kind: 'RESOURCES',
    keys: ['count', 'urls'],
    present: (e, view) =>
      view.table(
        'Static assets without caching headers',
        ['Asset'],
        stringsAt(e, 'urls').map((url) => [urlCell(url, view.pageUrl)]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  PERF_IMAGE_LEGACY_FORMAT: {
    kind: 'IMAGES',
    keys: ['count', 'images'],
    present: (e, view) =>
      view.table(
        'Large images in JPEG, PNG, GIF or BMP',
        ['Image', 'Size', 'Type'],
        recordsAt(e, 'images').map((image) => [
          urlCell(stringAt(image, 'url') ?? '', view.pageUrl),
          bytesCell(numberAt(image, 'bytes')) ?? { text: 'Unknown' },
          textCell(stringAt(image, 'type') ?? ''),
        ]),
        numberAt(e, 'count') ?? 0,
      ),
  },
  PERF_LCP_IMAGE_LAZY: {
    kind: 'IMAGES',
    // `loading` is always "lazy": the check's own definition.
    keys: ['src', 'width', 'loading'],
    present: (e, view) => {
      const src = stringAt(e, 'src');
      if (src !== null) view.fact('Likely LCP image', urlCell(src, view.pageUrl));
      const width = stringAt(e, 'width');
      if (width !== null) view.fact('Declared width', { text: width });
    },
  },
  PERF_IMAGES_NOT_LAZY: {
    kind: 'IMAGES',
    keys: ['images', 'eager'],
    present: (e, view) => {
      view.fact('Images on the page', numberCell(numberAt(e, 'images')));
      view.fact('Loaded eagerly after the first three', numberCell(numberAt(e, 'eager')));
    },
  },
};

/** The kind of view each catalog code's evidence becomes. */
export const EVIDENCE_KIND_BY_CODE: Readonly<Record<CheckCode, EvidenceKind>> = Object.fromEntries(
  Object.entries(PRESENTERS).map(([code, presenter]) => [code, presenter.kind]),
) as Record<CheckCode, EvidenceKind>;

/**
 * The evidence keys each code's evaluator emits, every one mapped on purpose (shown, or dropped as saying nothing).
 * A key not listed (a newer evaluator, an older stored row) still shows, through the generic rendering.
 */
export const EVIDENCE_KEYS_BY_CODE: Readonly<Record<CheckCode, readonly string[]>> = Object.fromEntries(
  Object.entries(PRESENTERS).map(([code, presenter]) => [code, presenter.keys]),
) as Record<CheckCode, readonly string[]>;

/**
 * One occurrence's evidence as facts and tables of plain text. `pageUrl` is the occurrence's URL (the page, or the
 * file a site check is about): relative URLs resolve against it and link tables name it as the source. Null when
 * nothing in the evidence says more than the check's title (no evidence, or only a count restating the failure).
 * A code outside the catalog (stored by an older version) gets the generic rendering.
 */
export function presentEvidence(
  code: string,
  evidence: Record<string, unknown> | null,
  pageUrl: string,
  context: EvidenceContext = {},
): EvidenceView | null {
  const view = new ViewBuilder(pageUrl, context);
  const record: Evidence = isRecord(evidence) ? evidence : {};
  const presenter: Presenter | undefined = Object.hasOwn(PRESENTERS, code) ? PRESENTERS[code as CheckCode] : undefined;
  presenter?.present?.(record, view);
  const known = new Set(presenter?.keys ?? []);
  presentGeneric(
    Object.entries(record).filter(([key]) => !known.has(key)),
    view,
  );
  if (view.facts.length === 0 && view.tables.length === 0) return null;
  return { kind: presenter?.kind ?? 'VALUES', facts: view.facts, tables: view.tables };
}

// Shared presenters

/** Entities with problems in words (structured-data-rules.ts): one row per problem. */
function entityProblemTable(e: Evidence, view: ViewBuilder): void {
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
function targetTable(view: ViewBuilder, caption: string, labelColumn: string, e: Evidence): void {
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
function stringsOrNull(e: Evidence, key: string): (string | null)[] {
  const value = e[key];
  return Array.isArray(value) ? value.filter((v): v is string | null => v === null || typeof v === 'string') : [];
}

function textAndLength(label: string, key: string): NonNullable<Presenter['present']> {
  return (e, view) => {
    view.fact(label, textCell(stringAt(e, key)));
    view.fact('Length', optional(charactersText, numberAt(e, 'length')));
  };
}

function metricPresenter(key: string, label: string, format: (value: number) => string): Presenter {
  return { kind: 'VALUES', keys: [key], present: (e, view) => view.fact(label, optional(format, numberAt(e, key))) };
}

function httpStatusFact(e: Evidence, view: ViewBuilder): void {
  view.fact('HTTP status', statusCell(numberAt(e, 'status'), null, false));
}

/** One column of strings; `total` (the evaluator's count) beyond the sample becomes `omitted`. */
function listTable(view: ViewBuilder, caption: string, column: string, items: string[], total: number | null): void {
  view.table(
    caption,
    [column],
    items.map((item) => [textCell(item)]),
    total ?? 0,
  );
}

/** The other members of a duplicate group (`sameAs`, a sample of `duplicates`). */
function duplicateTable(view: ViewBuilder, caption: string, e: Evidence): void {
  view.table(
    caption,
    ['Page'],
    stringsAt(e, 'sameAs').map((url) => [urlCell(url, view.pageUrl)]),
    numberAt(e, 'duplicates') ?? 0,
  );
}

/** One value of the raw HTML beside the rendered page's: "None" where a side has none. */
function rawAndRendered(
  view: ViewBuilder,
  what: string,
  raw: EvidenceCell | null,
  rendered: EvidenceCell | null,
): void {
  view.table(`${what}: raw HTML and rendered page`, ['Raw HTML', 'Rendered'], [[raw ?? NONE, rendered ?? NONE]]);
}

const NONE: EvidenceCell = Object.freeze({ text: 'None' });

/** RENDER_NOINDEX_CHANGED / RENDER_NOFOLLOW_CHANGED: the verdict on each side and the robots meta tags behind it. */
function robotsChange(view: ViewBuilder, what: string, e: Evidence): void {
  rawAndRendered(view, what, textCell(stringAt(e, 'raw')), textCell(stringAt(e, 'rendered')));
  rawAndRendered(
    view,
    'Robots meta tags',
    listCell(stringsAt(e, 'rawMeta'), ' | '),
    listCell(stringsAt(e, 'renderedMeta'), ' | '),
  );
}

/** Link targets given as plain URLs, from this page. */
function linkTable(view: ViewBuilder, caption: string, e: Evidence): void {
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
function brokenLinkTable(view: ViewBuilder, caption: string, e: Evidence): void {
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
function resourceTable(view: ViewBuilder, caption: string, statusColumn: string, e: Evidence): void {
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
function redirectTable(view: ViewBuilder, e: Evidence): void {
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
function presentGeneric(entries: [string, unknown][], view: ViewBuilder): void {
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
function dimensionsCell(image: Evidence): EvidenceCell {
  const width = stringAt(image, 'width');
  const height = stringAt(image, 'height');
  if (width === null && height === null) return { text: 'No width or height attribute' };
  if (height === null) return { text: clip(`width ${width}, no height attribute`) };
  if (width === null) return { text: clip(`height ${height}, no width attribute`) };
  return { text: clip(`${width} × ${height} (attributes)`) };
}

function textCell(value: string): EvidenceCell;
function textCell(value: string | null): EvidenceCell | null;
function textCell(value: string | null): EvidenceCell | null {
  return value === null ? null : { text: clip(value) };
}

/** A value as the page wrote it (a relative or non-web href): plain text, never a link. */
function writtenCell(value: string): EvidenceCell {
  return { text: clip(value) };
}

/** A URL cell: `href` resolved against `base`; an http(s) result carries `url`, anything else is plain text. */
function urlCell(href: string, base: string): EvidenceCell {
  const resolved = resolveUrl(href, base);
  if (resolved === null) return { text: clip(href) };
  return { text: clip(resolved), url: resolved };
}

function listCell(values: string[], separator = ', '): EvidenceCell | null {
  const shown = values.filter((value) => value.trim() !== '');
  return shown.length === 0 ? null : { text: clip(shown.join(separator)) };
}

function anchorCell(text: string | null): EvidenceCell {
  return text === null || text.trim() === '' ? { text: '(no text)' } : textCell(text);
}

function numberCell(value: number | null): EvidenceCell | null {
  return value === null ? null : { text: formatNumber(value) };
}

function bytesCell(value: number | null): EvidenceCell | null {
  return value === null ? null : { text: formatBytes(value) };
}

function wordsCell(words: number | null): EvidenceCell | null {
  if (words === null) return null;
  return { text: words === 0 ? 'None' : `${formatNumber(words)} ${words === 1 ? 'word' : 'words'}` };
}

function presentButEmpty(count: number | null): EvidenceCell | null {
  if (count === null || count < 1) return null;
  return { text: count === 1 ? 'Present, but empty' : `${formatNumber(count)} elements, the first one empty` };
}

/**
 * An HTTP status as "404 Not Found"; null when there is no status: `noResponse` then says why when known, else
 * "No response" when `nullMeansNoResponse` (the evaluator records null for a failed fetch), else nothing.
 */
function statusCell(
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
function findingStatus(finding: Evidence): EvidenceCell {
  return statusCell(numberAt(finding, 'status'), stringAt(finding, 'error'), true)!;
}

/** hstsVerdict's reasons as site-checks.ts words them: "max-age=0" or "invalid: <parser error>". */
const FRAME_PROBLEMS: Readonly<Record<string, string>> = {
  absent: 'Neither X-Frame-Options nor CSP frame-ancestors is sent',
  'frame-ancestors-wildcard': "CSP frame-ancestors allows '*' (any site)",
  'x-frame-options-conflict': 'X-Frame-Options has conflicting values, so browsers ignore it',
  'x-frame-options-invalid': 'X-Frame-Options is not DENY or SAMEORIGIN, so browsers ignore it',
};

function hstsProblem(reason: string): string {
  return reason === 'max-age=0' ? 'max-age=0 switches HSTS off' : capitalize(reason);
}

function canonicalProblem(reason: string | null): string {
  if (reason === null) return 'Unknown';
  const status = /^status (\d{3})$/.exec(reason);
  if (status) return statusCell(Number(status[1]), null, false)!.text;
  return CANONICAL_PROBLEMS[reason] ?? capitalize(reason);
}

// Formatting

function formatNumber(value: number, maximumFractionDigits = 1): string {
  return value.toLocaleString('en-US', { maximumFractionDigits });
}

function formatMs(value: number): string {
  return `${formatNumber(Math.round(value))} ms`;
}

/** Binary units, as the catalog states its limits ("over 200 KiB", "over 1 MiB"). */
function formatBytes(value: number): string {
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

function charactersText(value: number | null): string {
  return value === null ? 'Unknown' : `${formatNumber(value)} ${value === 1 ? 'character' : 'characters'}`;
}

function optional<V>(format: (value: V) => string, value: V | null): EvidenceCell | null {
  return value === null ? null : { text: format(value) };
}

function capitalize(text: string): string {
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

function isRecord(value: unknown): value is Evidence {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberAt(e: Evidence, key: string): number | null {
  const value = e[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function stringAt(e: Evidence, key: string): string | null {
  const value = e[key];
  return typeof value === 'string' ? value : null;
}

function stringsAt(e: Evidence, key: string): string[] {
  const value = e[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function recordsAt(e: Evidence, key: string): Evidence[] {
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

const NOINDEX_SOURCES: Readonly<Record<string, string>> = {
  meta: '<meta name="robots">',
  'googlebot-meta': '<meta name="googlebot">',
  header: 'X-Robots-Tag header',
};

/** NonIndexableReason (page-indexability.ts). */
const NON_INDEXABLE_REASONS: Readonly<Record<string, string>> = {
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
