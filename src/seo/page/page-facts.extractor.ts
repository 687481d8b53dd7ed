import {
  compileExtraction,
  DocumentTee,
  TREE_OPTIONS,
  type CompiledExtraction,
  type ExtractorSpec,
} from '../extraction/index.js';
import { DepthCappedParser } from './depth-capped-parser.js';
import { decodeDocument } from './document-decoding.js';
import { charsetOf, firstHeader, headerValues } from './header-values.js';
import { parseLinkHeader, relHas } from './http-link-header.js';
import { isHttpProtocol, isSameSite, resolveUrl, withoutFragment } from './link-url.js';
import {
  PAGE_FACT_LIMITS as LIMITS,
  type CanonicalFact,
  type HeadingFact,
  type HreflangFact,
  type ImageFact,
  type JsonLdBlock,
  type LinkFact,
  type MixedContentFact,
  type PageContext,
  type PageFacts,
  type ResourceFact,
  type ResourceKind,
} from './page-facts.types.js';
import { LinkPositionTracker } from './link-position.tracker.js';
import { buildRobotsDirectives } from './robots-directives.js';
import { VisibleTextAccumulator } from './visible-text.accumulator.js';

/** Characters kept of an image's width or height attribute ("800", "100%"). */
const DIMENSION_CHARS = 20;

/** Elements that may appear before `<body>`; any other element starts the body (HTML tree building). */
const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'title',
  'meta',
  'link',
  'script',
  'style',
  'base',
  'noscript',
  'template',
  'basefont',
  'bgsound',
]);

/** Inline elements do not separate words: "<b>foo</b>bar" is one word, "<p>foo</p>bar" two. */
const INLINE_ELEMENTS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'kbd',
  'label',
  'mark',
  'nobr',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

/** Elements whose URL attribute loads a subresource (mixed content when http on an https page). */
const RESOURCE_ATTRIBUTES: Record<string, string> = {
  iframe: 'src',
  video: 'src',
  audio: 'src',
  source: 'src',
  embed: 'src',
  track: 'src',
  object: 'data',
};

/** `<link rel>` values that make the browser fetch the target, and what it is. */
const LINK_RESOURCE_RELS: readonly [string, ResourceKind][] = [
  ['stylesheet', 'stylesheet'],
  ['icon', 'icon'],
  ['apple-touch-icon', 'icon'],
  ['apple-touch-icon-precomposed', 'icon'],
  ['mask-icon', 'icon'],
  ['manifest', 'other'],
  ['modulepreload', 'script'],
  ['preload', 'other'],
];

/** `<link rel=preload as=...>`: the kind of what is preloaded. */
const PRELOAD_KINDS: Record<string, ResourceKind> = {
  script: 'script',
  style: 'stylesheet',
  font: 'font',
  image: 'image',
  audio: 'media',
  video: 'media',
  track: 'media',
};

/** Ids of the element a client-side app mounts into (React, Vue, Next.js, Nuxt, Gatsby). */
const APP_ROOT_IDS = new Set(['root', 'app', '__next', '__nuxt', '___gatsby']);
/** Characters of text an app root may hold and still count as empty: a "Loading…" placeholder. */
const APP_ROOT_PLACEHOLDER_CHARS = 40;
/** Attributes a front-end framework writes on the element it renders into. */
const FRAMEWORK_MARKER_ATTRIBUTES = ['data-reactroot', 'ng-version', 'ng-app', 'data-v-app'] as const;

const JS_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'text/ecmascript',
  'module',
]);

/**
 * Extracts the facts the SEO checks need from one HTML document in a single streaming pass
 * (htmlparser2 `Parser`, nesting capped as a browser caps it; no DOM). Collections are capped (PAGE_FACT_LIMITS)
 * and visible text is reduced to counters and hashes on the fly, so memory stays bounded on any input. `ctx.url`
 * must be an absolute URL (a TypeError is thrown otherwise); bytes are decoded per BOM, Content-Type or meta charset.
 * `onExtractor` is told the index of each custom extractor as it starts (the page-facts thread's watch).
 */
export function extractPageFacts(
  html: string | Uint8Array,
  ctx: PageContext,
  onExtractor?: (index: number) => void,
): PageFacts {
  const contentType = firstHeader(ctx.headers, 'content-type');
  const source = typeof html === 'string' ? html : decodeDocument(html, contentType);
  const htmlBytes = typeof html === 'string' ? Buffer.byteLength(html) : html.byteLength;
  const collector = new PageFactsCollector(ctx, htmlBytes, contentType);
  const extraction = ctx.extraction?.specs.length ? compiledExtraction(ctx.extraction.specs) : null;
  // CSS and XPath extractors read a document tree: it is built during the same tokenization as the facts.
  const tee = extraction?.needsTree ? new DocumentTee(collector) : null;
  // Nesting capped as a browser caps it: the parse stays linear in depth (depth-capped-parser.ts).
  const parser = new DepthCappedParser(tee ?? collector, TREE_OPTIONS);
  parser.end(source);
  const facts = collector.finish();
  if (parser.flattened > 0) facts.nestingFlattened = parser.flattened;
  if (extraction) {
    const { budgetMs, timedOutFrom } = ctx.extraction!;
    facts.extraction = extraction.evaluate(source, { budgetMs, timedOutFrom, document: tee?.document, onExtractor });
  }
  return facts;
}

/** Compiled extractors by their specs: a thread meets the same project's specs page after page. */
const compiled = new Map<string, CompiledExtraction>();
/** The last specs met and their compilation: most pages reuse them, found without building a key. */
let last: { specs: ExtractorSpec[]; extraction: CompiledExtraction } | null = null;

const SPEC_FIELDS = ['key', 'kind', 'expression', 'output', 'attribute', 'match', 'regex', 'ignoreCase'] as const;
const sameSpecs = (a: readonly ExtractorSpec[], b: readonly ExtractorSpec[]): boolean =>
  a === b || (a.length === b.length && a.every((s, i) => SPEC_FIELDS.every((f) => s[f] === b[i][f])));

function compiledExtraction(specs: ExtractorSpec[]): CompiledExtraction {
  // Specs come structured-cloned from the crawler with every page: compared field by field, not by identity.
  if (last && sameSpecs(last.specs, specs)) return last.extraction;
  const key = JSON.stringify(specs);
  let extraction = compiled.get(key);
  if (!extraction) {
    if (compiled.size >= 16) compiled.clear();
    extraction = compileExtraction(specs);
    compiled.set(key, extraction);
  }
  last = { specs, extraction };
  return extraction;
}

type Attributes = Record<string, string>;

interface OpenAnchor {
  fact: LinkFact | null;
  text: string;
  imageAlt: string;
}

class PageFactsCollector {
  private readonly pageUrl: URL;
  private base: URL;
  private baseSet = false;
  private readonly https: boolean;
  private readonly text = new VisibleTextAccumulator();

  private inBody = false;
  /** Depth inside <noscript>/<template>: inert with scripting on, so their content is skipped. */
  private ignoreDepth = 0;
  private svgDepth = 0;
  private raw: 'script' | 'style' | 'jsonld' | null = null;
  private jsonText = '';
  private jsonTooLarge = false;
  private titleText: string | null = null;
  private heading: HeadingFact | null = null;
  private anchor: OpenAnchor | null = null;
  private readonly positions = new LinkPositionTracker();
  private readonly seenIds = new Set<string>();

  private doctype: string | null = null;
  private lang: string | null = null;
  private langSeen = false;
  private readonly titles: string[] = [];
  private titleCount = 0;
  private readonly descriptions: string[] = [];
  private descriptionCount = 0;
  private readonly headTagsInBody: string[] = [];
  private readonly robotsMeta: string[] = [];
  private readonly googlebotMeta: string[] = [];
  private readonly canonicals: CanonicalFact[] = [];
  private canonicalCount = 0;
  private viewport: string | null = null;
  private metaCharset: string | null = null;
  private httpEquivCharset: string | null = null;
  private metaRefresh: string | null = null;
  private readonly openGraph: Record<string, string> = {};
  private openGraphKeys = 0;
  private readonly twitter: Record<string, string> = {};
  private twitterKeys = 0;
  private readonly hreflang: HreflangFact[] = [];
  private readonly jsonLd: JsonLdBlock[] = [];
  private readonly headings: HeadingFact[] = [];
  private headingCount = 0;
  private h1Count = 0;
  private readonly images: ImageFact[] = [];
  private imageCount = 0;
  private readonly links: LinkFact[] = [];
  private linkCount = 0;
  /** Characters of the resolved URLs of the links read (PAGE_FACT_LIMITS.linkUrlChars); past it, none is read. */
  private linkUrlChars = 0;
  private readonly resources: ResourceFact[] = [];
  private readonly resourceUrls = new Set<string>();
  private duplicateIdCount = 0;
  private readonly duplicateIdSample: string[] = [];
  private blockingScripts = 0;
  private blockingStylesheets = 0;
  private readonly blockingSample: string[] = [];
  private mixedCount = 0;
  private readonly mixedSample: MixedContentFact[] = [];
  private domElements = 0;
  private hasFavicon = false;
  private viewportCount = 0;
  private amp = false;
  private ampHtml: { href: string; url: string | null } | null = null;
  private readonly pagination: { rel: 'next' | 'prev'; href: string; url: string | null }[] = [];
  /** Characters of visible body text seen so far (where an image starts on the page). */
  private visibleChars = 0;
  private placeholderText: string | null = null;
  /** Open code-like elements (CODE_ELEMENTS): text inside them is quoted, not the page's own copy. */
  private codeDepth = 0;
  /** The last non-blank character of visible text so far (a quotation mark before "lorem ipsum" quotes it). */
  private lastVisibleChar = '';
  /** An app root opened with nothing in it yet (see ClientRenderingFact). */
  private appRoot: { selector: string; name: string; text: string } | null = null;
  private emptyRoot: string | null = null;
  private readonly frameworkMarkers: string[] = [];

  constructor(
    private readonly ctx: PageContext,
    private readonly htmlBytes: number,
    private readonly contentType: string | null,
  ) {
    this.pageUrl = new URL(ctx.url);
    this.base = this.pageUrl;
    this.https = this.pageUrl.protocol === 'https:';
  }

  onprocessinginstruction(name: string, data: string): void {
    if (name === '!doctype' && this.doctype === null) this.doctype = data.slice(0, 200);
  }

  onopentag(name: string, attribs: Attributes): void {
    this.positions.open(name, attribs.role, attribs.class, attribs.id);
    if (this.ignoreDepth > 0) {
      if (name === 'noscript' || name === 'template') this.ignoreDepth++;
      return;
    }
    this.domElements++;
    // An element inside the app root means it is not empty (inert noscript/template content does not count).
    if (this.appRoot !== null && name !== 'noscript' && name !== 'template') this.appRoot = null;
    this.noteClientRendering(name, attribs);
    if (this.svgDepth > 0) {
      if (name === 'svg') this.svgDepth++;
      this.trackId(attribs.id);
      return;
    }
    if (!this.inBody && (name === 'body' || !HEAD_ELEMENTS.has(name))) this.inBody = true;
    this.trackId(attribs.id);
    if (!INLINE_ELEMENTS.has(name)) this.blockBoundary();
    if (CODE_ELEMENTS.has(name)) this.codeDepth++;

    switch (name) {
      case 'noscript':
      case 'template':
        this.ignoreDepth = 1;
        return;
      case 'svg':
        this.svgDepth = 1;
        return;
      case 'html':
        if (!this.langSeen) {
          this.langSeen = true;
          const lang = attribs.lang ?? attribs['xml:lang'];
          this.lang = lang === undefined ? null : lang.trim();
          this.amp = attribs.amp !== undefined || attribs['\u26a1'] !== undefined;
        }
        return;
      case 'title':
        this.titleText = '';
        if (this.inBody) this.noteInBody('title');
        return;
      case 'meta':
        this.onMeta(attribs);
        return;
      case 'link':
        this.onLink(attribs);
        return;
      case 'base':
        if (!this.baseSet && attribs.href !== undefined) {
          const resolved = resolveUrl(attribs.href, this.pageUrl);
          if (resolved) this.base = resolved;
          this.baseSet = true;
        }
        return;
      case 'script':
        this.onScript(attribs);
        return;
      case 'style':
        this.raw = 'style';
        return;
      case 'a':
      case 'area':
        this.onAnchor(name, attribs);
        return;
      case 'img':
        this.onImage(attribs);
        return;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        const level = name.charCodeAt(1) - 48;
        this.heading = { level, text: '' };
        this.headingCount++;
        if (level === 1) this.h1Count++;
        return;
      }
      default: {
        const attribute = RESOURCE_ATTRIBUTES[name];
        if (attribute !== undefined) this.onMediaElement(name, attribs);
        if (attribute !== undefined && this.https) {
          const value = attribs[attribute];
          if (value !== undefined) this.checkMixed(name, value);
          if (name === 'source' && attribs.srcset !== undefined) this.checkMixedSrcset(name, attribs.srcset);
          if (name === 'video' && attribs.poster !== undefined) this.checkMixed(name, attribs.poster);
        }
      }
    }
  }

  onclosetag(name: string): void {
    this.positions.close();
    if (this.ignoreDepth > 0) {
      if (name === 'noscript' || name === 'template') this.ignoreDepth--;
      return;
    }
    if (this.svgDepth > 0) {
      if (name === 'svg') this.svgDepth--;
      return;
    }
    if (this.appRoot !== null) {
      // Nothing but a short placeholder opened inside it: the root is closed empty.
      if (name === this.appRoot.name && collapse(this.appRoot.text).length <= APP_ROOT_PLACEHOLDER_CHARS)
        this.emptyRoot ??= this.appRoot.selector;
      this.appRoot = null;
    }
    if (CODE_ELEMENTS.has(name) && this.codeDepth > 0) this.codeDepth--;
    switch (name) {
      case 'title':
        if (this.titleText !== null) {
          this.titleCount++;
          if (this.titles.length < LIMITS.titles) this.titles.push(clipMeta(collapse(this.titleText)));
          this.titleText = null;
        }
        return;
      case 'script':
      case 'style':
        if (this.raw === 'jsonld') this.finishJsonLd();
        this.raw = null;
        return;
      case 'a':
      case 'area':
        this.finishAnchor();
        return;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        if (this.heading) {
          if (this.headings.length < LIMITS.headings) {
            this.headings.push({ level: this.heading.level, text: clip(collapse(this.heading.text)) });
          }
          this.heading = null;
        }
        this.blockBoundary();
        return;
      default:
        if (!INLINE_ELEMENTS.has(name)) this.blockBoundary();
    }
  }

  ontext(data: string): void {
    if (this.ignoreDepth > 0) return;
    if (this.raw !== null) {
      if (this.raw === 'script' && data.includes('window.__NUXT__')) this.addMarker('window.__NUXT__');
      if (this.raw === 'jsonld' && !this.jsonTooLarge) {
        if (this.jsonText.length + data.length > LIMITS.jsonLdBlockBytes) this.jsonTooLarge = true;
        else this.jsonText += data;
      }
      return;
    }
    if (this.titleText !== null) {
      if (this.titleText.length < LIMITS.metaTextChars * 2) this.titleText += data;
      return;
    }
    if (this.svgDepth > 0) return;
    if (!this.inBody) {
      // Whitespace between head elements is not content; anything else starts the body.
      if (!/\S/.test(data)) return;
      this.inBody = true;
    }
    if (this.appRoot !== null && (this.appRoot.text += data).length > APP_ROOT_PLACEHOLDER_CHARS * 4)
      this.appRoot = null;
    this.text.push(data);
    this.visibleChars += data.length;
    if (this.placeholderText === null && this.codeDepth === 0 && data.length >= 11) this.notePlaceholder(data);
    this.lastVisibleChar = lastNonBlank(data) || this.lastVisibleChar;
    if (this.anchor && this.anchor.text.length < LIMITS.textChars * 2) this.anchor.text += data;
    if (this.heading && this.heading.text.length < LIMITS.textChars * 2) this.heading.text += data;
  }

  /** A block element starts or ends: words do not run across it, nor does a quotation mark quote past it. */
  private blockBoundary(): void {
    this.text.boundary();
    this.lastVisibleChar = '';
  }

  /** App roots and framework markers (ClientRenderingFact). */
  private noteClientRendering(name: string, attribs: Attributes): void {
    const id = attribs.id;
    if (this.emptyRoot === null && ((id !== undefined && APP_ROOT_IDS.has(id)) || name === 'app-root'))
      this.appRoot = { selector: name === 'app-root' ? name : `${name}#${id}`, name, text: '' };
    for (const attribute of FRAMEWORK_MARKER_ATTRIBUTES)
      if (attribs[attribute] !== undefined) this.addMarker(attribute);
    if (name === 'script' && id === '__NEXT_DATA__') this.addMarker('__NEXT_DATA__');
  }

  private addMarker(marker: string): void {
    if (!this.frameworkMarkers.includes(marker)) this.frameworkMarkers.push(marker);
  }

  private trackId(id: string | undefined): void {
    if (id === undefined || id === '') return;
    if (this.seenIds.has(id)) {
      this.duplicateIdCount++;
      if (this.duplicateIdSample.length < LIMITS.samples && !this.duplicateIdSample.includes(id)) {
        this.duplicateIdSample.push(clip(id));
      }
    } else if (this.seenIds.size < LIMITS.ids) {
      this.seenIds.add(id);
    }
  }

  private noteInBody(tag: string): void {
    if (this.headTagsInBody.length < LIMITS.samples && !this.headTagsInBody.includes(tag))
      this.headTagsInBody.push(tag);
  }

  private onMeta(attribs: Attributes): void {
    const name = attribs.name?.trim().toLowerCase();
    const property = attribs.property?.trim().toLowerCase();
    const httpEquiv = attribs['http-equiv']?.trim().toLowerCase();
    const content = attribs.content ?? '';

    if (attribs.charset !== undefined) {
      this.metaCharset ??= attribs.charset.trim().toLowerCase();
      if (this.inBody) this.noteInBody('meta[charset]');
    }
    if (httpEquiv !== undefined) {
      if (httpEquiv === 'content-type') this.httpEquivCharset ??= charsetOf(content);
      if (httpEquiv === 'refresh') this.metaRefresh ??= clip(content);
      if (this.inBody) this.noteInBody(`meta[http-equiv=${httpEquiv}]`);
    }
    if (name !== undefined) {
      switch (name) {
        case 'description':
          this.descriptionCount++;
          if (this.descriptions.length < LIMITS.descriptions) this.descriptions.push(clipMeta(collapse(content)));
          break;
        case 'robots':
          if (this.robotsMeta.length < LIMITS.samples) this.robotsMeta.push(clip(content));
          break;
        case 'googlebot':
          if (this.googlebotMeta.length < LIMITS.samples) this.googlebotMeta.push(clip(content));
          break;
        case 'viewport':
          this.viewport ??= clip(content);
          this.viewportCount++;
          break;
      }
      if (this.inBody && (name === 'description' || name === 'robots' || name === 'googlebot' || name === 'viewport')) {
        this.noteInBody(`meta[name=${name}]`);
      }
    }
    // Open Graph uses `property`, Twitter `name`; sites mix them up and parsers accept both.
    const key = property ?? name;
    if (key === undefined) return;
    if (key.startsWith('og:')) {
      if (!(key in this.openGraph) && this.openGraphKeys < LIMITS.openGraphKeys) {
        this.openGraph[key] = clip(content.trim());
        this.openGraphKeys++;
      }
    } else if (key.startsWith('twitter:')) {
      if (!(key in this.twitter) && this.twitterKeys < LIMITS.twitterKeys) {
        this.twitter[key] = clip(content.trim());
        this.twitterKeys++;
      }
    }
  }

  private onLink(attribs: Attributes): void {
    const rel = attribs.rel;
    if (rel === undefined) return;
    const href = attribs.href;
    if (relHas(rel, 'canonical')) {
      this.canonicalCount++;
      if (this.inBody) this.noteInBody('link[rel=canonical]');
      if (href !== undefined && this.canonicals.length < LIMITS.canonicals) {
        const resolved = resolveUrl(href, this.base);
        this.canonicals.push({
          href: clipUrl(href.trim()),
          url: resolved ? clipUrl(resolved.href) : null,
          inBody: this.inBody,
        });
      }
    }
    if (attribs.hreflang !== undefined && relHas(rel, 'alternate') && this.hreflang.length < LIMITS.hreflang) {
      const raw = href ?? '';
      const resolved = raw === '' ? null : resolveUrl(raw, this.base);
      this.hreflang.push({
        lang: clip(attribs.hreflang.trim()),
        href: clipUrl(raw.trim()),
        url: resolved ? clipUrl(resolved.href) : null,
        source: 'html',
      });
    }
    const lowerRel = rel.toLowerCase();
    if (relHas(lowerRel, 'icon') || lowerRel.includes('apple-touch-icon')) this.hasFavicon = true;
    if (href !== undefined) this.onSeriesLink(lowerRel, href);
    if (href !== undefined) {
      for (const [value, kind] of LINK_RESOURCE_RELS) {
        if (!relHas(lowerRel, value)) continue;
        const as = attribs.as?.trim().toLowerCase() ?? '';
        this.addResource(href, value === 'preload' ? (PRELOAD_KINDS[as] ?? 'other') : kind, `link[rel=${value}]`);
        break;
      }
    }
    if (relHas(lowerRel, 'stylesheet') && href !== undefined) {
      if (this.https) this.checkMixed('link', href);
      const media = attribs.media?.trim().toLowerCase();
      if (!this.inBody && attribs.disabled === undefined && media !== 'print' && !relHas(lowerRel, 'alternate')) {
        this.blockingStylesheets++;
        if (this.blockingSample.length < LIMITS.samples) this.blockingSample.push(clipUrl(href.trim()));
      }
    }
  }

  /** `<link rel="amphtml">` (the first) and `<link rel="next|prev|previous">` (capped). */
  private onSeriesLink(rel: string, href: string): void {
    const amp = relHas(rel, 'amphtml');
    const series = relHas(rel, 'next') ? 'next' : relHas(rel, 'prev') || relHas(rel, 'previous') ? 'prev' : null;
    if (!amp && series === null) return;
    const trimmed = href.trim();
    const resolved = trimmed === '' ? null : resolveUrl(trimmed, this.base);
    const link = { href: clipUrl(trimmed), url: resolved ? clipUrl(withoutFragment(resolved)) : null };
    if (amp) this.ampHtml ??= link;
    if (series !== null && this.pagination.length < LIMITS.samples) this.pagination.push({ rel: series, ...link });
  }

  private onScript(attribs: Attributes): void {
    const type = (attribs.type ?? '').trim().toLowerCase();
    if (type.startsWith('application/ld+json')) {
      this.raw = 'jsonld';
      this.jsonText = '';
      this.jsonTooLarge = false;
      return;
    }
    this.raw = 'script';
    const src = attribs.src;
    if (src === undefined) return;
    this.addResource(src, 'script', 'script');
    if (this.https) this.checkMixed('script', src);
    const blocking =
      JS_TYPES.has(type) && type !== 'module' && attribs.async === undefined && attribs.defer === undefined;
    if (!this.inBody && blocking) {
      this.blockingScripts++;
      if (this.blockingSample.length < LIMITS.samples) this.blockingSample.push(clipUrl(src.trim()));
    }
  }

  private finishJsonLd(): void {
    if (this.jsonLd.length >= LIMITS.jsonLdBlocks) return;
    if (this.jsonTooLarge) {
      this.jsonLd.push({
        ok: false,
        error: `block over ${LIMITS.jsonLdBlockBytes} characters, not parsed`,
        skipped: true,
      });
      return;
    }
    const body = this.jsonText.trim();
    this.jsonText = '';
    if (body === '') {
      this.jsonLd.push({ ok: false, error: 'empty JSON-LD block' });
      return;
    }
    try {
      this.jsonLd.push({ ok: true, value: JSON.parse(body) as unknown });
    } catch (error) {
      this.jsonLd.push({ ok: false, error: clip(jsonErrorMessage((error as Error).message, body)) });
    }
  }

  private onAnchor(name: string, attribs: Attributes): void {
    this.finishAnchor();
    const href = attribs.href;
    // Lighthouse's crawlable-anchors: an <a> without href is a placeholder, unless a handler or an attribute that
    // only an href gives meaning to (target, rel, download...) shows it is meant as a link.
    if (href === undefined && (name !== 'a' || (attribs.onclick === undefined && !hasHrefAttribute(attribs)))) return;
    this.linkCount++;
    if (this.links.length >= LIMITS.links || this.linkUrlChars >= LIMITS.linkUrlChars) return;
    const fact = this.classifyLink(href ?? '', href === undefined);
    this.linkUrlChars += fact.url?.length ?? 0;
    // Lighthouse's crawlable-anchors exemptions: an anchor with a role is a control, one with a name is a target
    // (but never a file: link), an <a id> without href too; mailto: never fails. None of them is meant to be followed.
    if (
      fact.kind === 'uncrawlable' &&
      (hasValue(attribs.role) ||
        (hasValue(attribs.name) && !/^file:/i.test(fact.href)) ||
        (href === undefined && hasValue(attribs.id)))
    )
      fact.kind = 'other';
    // Lighthouse reads <a> elements only: an image map's <area> is not judged.
    if (fact.kind === 'uncrawlable' && name === 'area') fact.kind = 'other';
    fact.nofollow = relHas(attribs.rel, 'nofollow');
    if (hasValue(attribs.rel)) fact.rel = clip(collapse(attribs.rel!));
    const label = attribs['aria-label'];
    fact.label = label === undefined ? null : clip(collapse(label));
    this.links.push(fact);
    if (name === 'area') fact.text = clip(collapse(attribs.alt ?? ''));
    else this.anchor = { fact, text: '', imageAlt: '' };
  }

  /**
   * What an href is, by Lighthouse's crawlable-anchors rules: uncrawlable are `javascript:void(0)`, `file:`, an href
   * that does not parse, and an <a> without href that acts as a link (`missing`). An empty href is the page itself,
   * as a browser resolves it (a breadcrumb's "you are here"), so it is a same-page link like `#`, which is often a
   * script's toggle, not a crawl problem; other `javascript:` hrefs are actions, like buttons.
   */
  private classifyLink(href: string, missing = false): LinkFact {
    const trimmed = href.trim();
    const fact: LinkFact = {
      href: clipUrl(trimmed),
      kind: 'uncrawlable',
      url: null,
      internal: false,
      text: '',
      label: null,
      nofollow: false,
      position: this.positions.position,
    };
    if (missing) return fact;
    if (trimmed === '' || trimmed.charCodeAt(0) === 35 /* # */) {
      fact.kind = 'fragment';
      fact.internal = true;
      return fact;
    }
    if (/^javascript:/i.test(trimmed)) {
      if (!JAVASCRIPT_VOID.test(trimmed.replace(/\s/g, ''))) fact.kind = 'other';
      return fact;
    }
    const resolved = resolveUrl(trimmed, this.base);
    if (!resolved || resolved.protocol === 'file:') return fact;
    if (!isHttpProtocol(resolved.protocol)) {
      fact.kind = 'other';
      return fact;
    }
    fact.kind = 'http';
    fact.url = clipUrl(withoutFragment(resolved));
    fact.internal = isSameSite(resolved, this.pageUrl);
    return fact;
  }

  private finishAnchor(): void {
    const anchor = this.anchor;
    if (!anchor) return;
    this.anchor = null;
    if (!anchor.fact) return;
    const text = collapse(anchor.text);
    anchor.fact.text = clip(text === '' ? collapse(anchor.imageAlt) : text);
  }

  private onImage(attribs: Attributes): void {
    this.imageCount++;
    const srcset = attribs.srcset;
    const src = attribs.src ?? attribs['data-src'] ?? firstSrcsetCandidate(srcset) ?? '';
    const alt = attribs.alt;
    if (this.anchor && alt !== undefined && this.anchor.imageAlt.length < LIMITS.textChars)
      this.anchor.imageAlt += ` ${alt}`;
    if (this.https) {
      if (attribs.src !== undefined) this.checkMixed('img', attribs.src);
      if (srcset !== undefined) this.checkMixedSrcset('img', srcset);
    }
    // Lazy-loading scripts put the real URL in data-src and a placeholder in src: the browser loads src.
    if (attribs.src !== undefined) this.addResource(attribs.src, 'image', 'img');
    else if (attribs['data-src'] !== undefined) this.addResource(attribs['data-src'], 'image', 'img[data-src]');
    if (srcset !== undefined) this.addSrcset(srcset, 'image', 'img[srcset]');
    if (this.images.length >= LIMITS.images) return;
    const trimmed = src.trim();
    const resolved = trimmed === '' ? null : resolveUrl(trimmed, this.base);
    const image: ImageFact = {
      src: clipUrl(trimmed),
      url: resolved ? clipUrl(resolved.href) : null,
      alt: alt === undefined ? null : clip(alt.trim()),
      hasWidth: hasValue(attribs.width),
      hasHeight: hasValue(attribs.height),
    };
    if (image.hasWidth) image.width = attribs.width!.trim().slice(0, DIMENSION_CHARS);
    if (image.hasHeight) image.height = attribs.height!.trim().slice(0, DIMENSION_CHARS);
    if (attribs.loading !== undefined) image.loading = attribs.loading.trim().toLowerCase().slice(0, DIMENSION_CHARS);
    if (hasValue(attribs['data-src']) || hasValue(attribs['data-srcset'])) image.scriptLazy = true;
    if (!hasValue(attribs.src) && !hasValue(srcset) && !image.scriptLazy) image.noSource = true;
    image.textBefore = this.visibleChars;
    this.images.push(image);
  }

  /**
   * CONTENT_PLACEHOLDER_TEXT: "lorem ipsum" within one text node (markup splitting the two words is rare), as the
   * page's own copy: not inside code-like elements (the caller's codeDepth) and not quoted — a page that writes about
   * lorem ipsum (the documentation of Django's {% lorem %} tag) mentions it in quotation marks.
   */
  private notePlaceholder(data: string): void {
    if (!LOREM_IPSUM.test(data)) return;
    for (const match of data.matchAll(LOREM_IPSUM_ALL)) {
      const before = lastNonBlank(data.slice(Math.max(0, match.index - 40), match.index)) || this.lastVisibleChar;
      if (before !== '' && QUOTATION_MARKS.includes(before)) continue;
      this.placeholderText = collapse(data.slice(Math.max(0, match.index - 20), match.index + 80));
      return;
    }
  }

  /** `<video>`, `<audio>`, `<source>`, `<track>`, `<embed>`, `<object>`, `<iframe>`: what they load. */
  private onMediaElement(name: string, attribs: Attributes): void {
    // A frame is a document of its own (often another site's player), not a subresource of this page.
    if (name === 'iframe') return;
    const kind: ResourceKind = name === 'embed' || name === 'object' ? 'other' : 'media';
    const value = attribs[RESOURCE_ATTRIBUTES[name]];
    // <source> inside <picture> carries images in srcset; inside <video>/<audio> a media file in src.
    if (value !== undefined) this.addResource(value, kind, `${name}`);
    if (name === 'source' && attribs.srcset !== undefined) this.addSrcset(attribs.srcset, 'image', 'source[srcset]');
    if (name === 'video' && attribs.poster !== undefined) this.addResource(attribs.poster, 'image', 'video[poster]');
  }

  private addSrcset(srcset: string, kind: ResourceKind, tag: string): void {
    for (const candidate of srcset.split(',')) {
      const url = candidate.trim().split(/\s+/)[0];
      if (url) this.addResource(url, kind, tag);
    }
  }

  /** A distinct http(s) subresource (data:, blob: and unparsable values are not fetched from anywhere). */
  private addResource(value: string, kind: ResourceKind, tag: string): void {
    if (this.resources.length >= LIMITS.resources) return;
    const trimmed = value.trim();
    if (trimmed === '' || trimmed.charCodeAt(0) === 35 /* # */ || /^(data|blob|javascript|about):/i.test(trimmed))
      return;
    const resolved = resolveUrl(trimmed, this.base);
    if (!resolved || !isHttpProtocol(resolved.protocol)) return;
    const url = clipUrl(withoutFragment(resolved));
    if (this.resourceUrls.has(url)) return;
    this.resourceUrls.add(url);
    this.resources.push({ url, kind, tag });
  }

  /** An http: subresource on an https page; relative URLs inherit the base's scheme. */
  private checkMixed(tag: string, value: string): void {
    const trimmed = value.trim();
    let insecure: boolean;
    if (/^http:/i.test(trimmed)) insecure = true;
    else if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed === '') insecure = false;
    else insecure = this.base.protocol === 'http:';
    if (!insecure) return;
    this.mixedCount++;
    if (this.mixedSample.length < LIMITS.samples) {
      const resolved = resolveUrl(trimmed, this.base);
      this.mixedSample.push({ tag, url: clipUrl(resolved ? resolved.href : trimmed) });
    }
  }

  private checkMixedSrcset(tag: string, srcset: string): void {
    for (const candidate of srcset.split(',')) {
      const url = candidate.trim().split(/\s+/)[0];
      if (url && /^http:/i.test(url)) this.checkMixed(tag, url);
    }
  }

  finish(): PageFacts {
    this.finishAnchor();
    const headers = this.ctx.headers;
    const text = this.text.finish();
    let headerCanonical: string | null = null;
    for (const value of headerValues(headers, 'link')) {
      for (const entry of parseLinkHeader(value)) {
        const rel = entry.params.rel;
        if (relHas(rel, 'canonical') && headerCanonical === null) {
          const resolved = resolveUrl(entry.target, this.pageUrl);
          headerCanonical = resolved ? clipUrl(resolved.href) : clipUrl(entry.target);
        } else if (
          relHas(rel, 'alternate') &&
          entry.params.hreflang !== undefined &&
          this.hreflang.length < LIMITS.hreflang
        ) {
          const resolved = resolveUrl(entry.target, this.pageUrl);
          this.hreflang.push({
            lang: clip(entry.params.hreflang.trim()),
            href: clipUrl(entry.target),
            url: resolved ? clipUrl(resolved.href) : null,
            source: 'header',
          });
        }
      }
    }
    const headerCharset = charsetOf(this.contentType);
    const charset = this.metaCharset
      ? { value: this.metaCharset, source: 'meta' as const }
      : this.httpEquivCharset
        ? { value: this.httpEquivCharset, source: 'http-equiv' as const }
        : headerCharset
          ? { value: headerCharset, source: 'header' as const }
          : null;
    return {
      url: this.pageUrl.href,
      baseUrl: this.base.href,
      htmlBytes: this.htmlBytes,
      doctype: this.doctype,
      hasHtmlDoctype: this.doctype !== null && /^!doctype\s+html\b/i.test(this.doctype),
      lang: this.lang,
      titles: this.titles,
      titleCount: this.titleCount,
      descriptions: this.descriptions,
      descriptionCount: this.descriptionCount,
      headTagsInBody: this.headTagsInBody,
      robots: buildRobotsDirectives(this.robotsMeta, this.googlebotMeta, headerValues(headers, 'x-robots-tag')),
      canonicals: this.canonicals,
      canonicalCount: this.canonicalCount,
      headerCanonical,
      viewport: this.viewport,
      charset,
      metaRefresh: this.metaRefresh,
      openGraph: this.openGraph,
      twitter: this.twitter,
      hreflang: this.hreflang,
      jsonLd: this.jsonLd,
      headings: this.headings,
      headingCount: this.headingCount,
      h1Count: this.h1Count,
      wordCount: text.wordCount,
      textBytes: text.textBytes,
      textHash: text.textHash,
      simhash: text.simhash,
      images: this.images,
      imageCount: this.imageCount,
      links: this.links,
      resources: this.resources,
      linkCount: this.linkCount,
      duplicateIds: { count: this.duplicateIdCount, sample: this.duplicateIdSample },
      renderBlocking: {
        scripts: this.blockingScripts,
        stylesheets: this.blockingStylesheets,
        sample: this.blockingSample,
      },
      mixedContent: { count: this.mixedCount, sample: this.mixedSample },
      domElements: this.domElements,
      hasFavicon: this.hasFavicon,
      viewportCount: this.viewportCount,
      amp: this.amp,
      ampHtml: this.ampHtml,
      pagination: this.pagination,
      placeholderText: this.placeholderText,
      clientRendering: { emptyRoot: this.emptyRoot, markers: this.frameworkMarkers },
    };
  }
}

/** Whitespace other than single inner spaces: only then is there anything to collapse. */
const IRREGULAR_SPACE_RE = /[^\S ]| {2}|^ | $/;

/** Placeholder copy: the two words that open every lorem ipsum passage. */
const LOREM_IPSUM = /\blorem\s+ipsum\b/i;
const LOREM_IPSUM_ALL = /\blorem\s+ipsum\b/gi;
/** Elements whose text is code, input, output or a quotation, not the page's own copy (CONTENT_PLACEHOLDER_TEXT). */
const CODE_ELEMENTS = new Set(['code', 'pre', 'kbd', 'samp', 'var', 'tt', 'q']);
/** Opening (and, in some languages, closing) quotation marks: a phrase right after one is quoted. */
const QUOTATION_MARKS = '"\'“”‘’«»„‚‹›「『';

/** `javascript:void(0)`, `javascript:void 0` and the like: an anchor that goes nowhere (Lighthouse's pattern). */
const JAVASCRIPT_VOID = /^javascript:void(\(|)0(\)|)/i;

/** Attributes HTML allows only beside an href (Lighthouse's crawlable-anchors: such an <a> is meant as a link). */
const HREF_ATTRIBUTES = ['target', 'download', 'ping', 'rel', 'hreflang', 'type', 'referrerpolicy'];

function hasHrefAttribute(attribs: Attributes): boolean {
  return HREF_ATTRIBUTES.some((name) => attribs[name] !== undefined);
}

/** The last character of `text` that is not white space ('' when none), read from the end. */
function lastNonBlank(text: string): string {
  for (let i = text.length - 1; i >= 0; i--) if (!/\s/.test(text.charAt(i))) return text.charAt(i);
  return '';
}

function hasValue(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

function collapse(text: string): string {
  // Most link texts, headings and titles are already collapsed: a test is far cheaper than a replace.
  return IRREGULAR_SPACE_RE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

function clip(text: string): string {
  return text.length > LIMITS.textChars ? text.slice(0, LIMITS.textChars) : text;
}

function clipMeta(text: string): string {
  return text.length > LIMITS.metaTextChars ? text.slice(0, LIMITS.metaTextChars) : text;
}

function clipUrl(url: string): string {
  return url.length > LIMITS.urlChars ? url.slice(0, LIMITS.urlChars) : url;
}

function firstSrcsetCandidate(srcset: string | undefined): string | undefined {
  if (srcset === undefined) return undefined;
  const first = srcset.trim().split(/\s+/)[0];
  return first ? first.replace(/,$/, '') : undefined;
}

/**
 * JSON.parse's message in one form on every Node version: V8 before Node 22 says "... at position 54", later ones add
 * " (line 1 column 55)". The line and column are what a person looks for in their template, so they are always given.
 */
export function jsonErrorMessage(message: string, body: string): string {
  const bare = message.replace(/ \(line \d+ column \d+\)$/, '');
  const at = / at position (\d+)$/.exec(bare);
  if (!at) return bare;
  const position = Number(at[1]);
  const before = body.slice(0, position);
  const line = before.split('\n').length;
  const column = position - (before.lastIndexOf('\n') + 1) + 1;
  return `${bare} (line ${line} column ${column})`;
}
