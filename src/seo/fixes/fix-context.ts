import { Parser } from 'htmlparser2';
import { FIX_LIMITS as L, type FixHeading, type FixImage, type FixLink, type FixPageContext } from './fix.types.js';
import { collapseWhitespace } from './markup-text.js';
import { siteTitlePattern } from './site-title-pattern.js';

/** Content never rendered as text. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'select',
  'textarea',
  'button',
]);
/** Page chrome: its text is not what the page is about (a <header> only outside the main content, see below). */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'form', 'dialog', 'menu']);
/** ARIA landmarks and widgets of the same chrome, on any element. */
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar']);
/** Class or id words of menus, breadcrumb trails, skip links and screen-reader-only text ("main-nav", "sr-only"). */
const CHROME_NAME_RE = new RegExp(
  String.raw`^(?:[a-z0-9]+[-_])*(?:nav|navbar|navigation|menu|menubar|megamenu|breadcrumbs?|skip|skip[-_]?links?|` +
    String.raw`skip[-_]to[-_](?:content|main)|sr[-_]only(?:[-_]focusable)?|screen[-_]reader[-_](?:text|shortcut)|` +
    String.raw`visually[-_]hidden(?:[-_]focusable)?)$`,
  'i',
);
/**
 * Class or id words of the site's header, footer and sidebar, chrome outside the main content only ("site-header",
 * not "entry-header" or "page-header", which head the content itself).
 */
const SITE_CHROME_NAME_RE =
  /^(?:(?:site|global|main|top|primary)[-_])?(?:header|footer)$|^(?:[a-z0-9]+[-_])*(?:masthead|sidebar|colophon)$/i;
/** Elements whose classes describe the page's state ("nav-open", "modal-open"), not chrome. */
const DOCUMENT = new Set(['html', 'body', 'main', 'article']);
/** Elements whose text forms a block of its own (paragraph fallback for pages without <p>). */
const BLOCKS = new Set([
  'div',
  'section',
  'article',
  'main',
  'li',
  'dd',
  'td',
  'blockquote',
  'figcaption',
  'summary',
  'details',
]);
/** Consent and cookie banners sit early in the body and would otherwise become "the first paragraph". */
const BANNER_RE = /cookie|consent|gdpr|banner|newsletter|modal|popup/i;

type Attributes = Record<string, string>;

interface Frame {
  name: string;
  /** Text inside is not page content (raw text, chrome, hidden or banner). */
  skip: boolean;
  /** Collects this element's own text (p, headings, title, blocks, links). */
  buffer: string[] | null;
  length: number;
  /**
   * Index of the nearest frame at or above this one that collects or skips text (-1: none), kept so
   * text finds its collector in O(1) however deep the markup nests.
   */
  target: number;
  /** Opens a <main> (role=main) or <article> (role=article) region. */
  region: 'main' | 'article' | null;
}

/** The text blocks of one region of the page: <p> paragraphs and, for pages without any, other blocks. */
class RegionText {
  readonly paragraphs: string[] = [];
  readonly blocks: string[] = [];
  private paragraphChars = 0;
  private blockChars = 0;

  addParagraph(text: string): void {
    this.paragraphChars = pushBounded(this.paragraphs, text, this.paragraphChars);
  }

  addBlock(text: string): void {
    this.blockChars = pushBounded(this.blocks, text, this.blockChars);
  }

  /** Its paragraphs, else its blocks; null when it holds no text. */
  text(): string[] | null {
    if (this.paragraphs.length > 0) return this.paragraphs;
    return this.blocks.length > 0 ? this.blocks : null;
  }
}

/**
 * Reads the bounded page digest the fix engines use from an HTML document (one htmlparser2 pass, no
 * DOM): title, meta description, headings, the first visible paragraphs of the main content, lang,
 * canonical, images, links, og:site_name/locale/image and hreflang. Every collection is capped (FIX_LIMITS).
 * Given the titles of the site's other pages, it adds the title pattern they share (`sitePattern`).
 */
export function extractFixContext(
  html: string,
  url: string,
  site: { otherTitles?: readonly string[] } = {},
): FixPageContext {
  const collector = new FixContextCollector(url);
  const parser = new Parser(collector, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  const page = collector.finish();
  return site.otherTitles ? { ...page, sitePattern: siteTitlePattern(site.otherTitles) } : page;
}

class FixContextCollector {
  private readonly stack: Frame[] = [];
  private skipDepth = 0;
  private svgDepth = 0;
  private mainDepth = 0;
  private articleDepth = 0;
  private base: URL | null;
  private baseSet = false;

  private title: string | null = null;
  private description: string | null = null;
  private lang: string | null = null;
  private canonical: string | null = null;
  private siteName: string | null = null;
  private locale: string | null = null;
  private ogImage: string | null = null;
  private readonly headings: FixHeading[] = [];
  /** The whole page's text, and that of <main> and <article>, which win when present. */
  private readonly pageText = new RegionText();
  private readonly mainText = new RegionText();
  private readonly articleText = new RegionText();
  private readonly images: FixImage[] = [];
  private readonly links: FixLink[] = [];
  private readonly hreflang: { lang: string; href: string }[] = [];
  private pendingLink: FixLink | null = null;

  constructor(private readonly url: string) {
    this.base = parseUrl(url);
  }

  onopentag(name: string, attrs: Attributes): void {
    const hidden =
      'hidden' in attrs ||
      attrs['aria-hidden'] === 'true' ||
      /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attrs.style ?? '');
    const role = (attrs.role ?? '').trim().toLowerCase().split(/\s+/)[0];
    const inContent = this.mainDepth + this.articleDepth > 0;
    const skip =
      RAW_TEXT.has(name) ||
      (CHROME.has(name) && !(name === 'header' && inContent)) ||
      CHROME_ROLES.has(role) ||
      hidden ||
      (!DOCUMENT.has(name) && isChromeByName(attrs, role, inContent));
    const region =
      skip || this.skipDepth > 0
        ? null
        : name === 'main' || role === 'main'
          ? 'main'
          : name === 'article' || role === 'article'
            ? 'article'
            : null;
    if (skip) this.skipDepth++;
    if (name === 'svg') this.svgDepth++;
    if (region === 'main') this.mainDepth++;
    if (region === 'article') this.articleDepth++;
    const parentTarget = this.stack.length > 0 ? this.stack[this.stack.length - 1].target : -1;
    const frame: Frame = { name, skip, buffer: null, length: 0, target: parentTarget, region };
    this.stack.push(frame);

    switch (name) {
      case 'html':
        if (this.lang === null && attrs.lang !== undefined) this.lang = attrs.lang.trim();
        break;
      case 'base':
        if (!this.baseSet && attrs.href !== undefined) {
          this.baseSet = true;
          this.base = parseUrl(attrs.href, this.base) ?? this.base;
        }
        break;
      case 'meta':
        this.onMeta(attrs);
        break;
      case 'link':
        this.onLink(attrs);
        break;
      case 'img':
        this.onImage(attrs);
        break;
      case 'br':
        this.ontext(' ');
        break;
      case 'title':
        // An svg <title> is an image label, not the document title.
        if (this.title === null && this.svgDepth === 0) frame.buffer = [];
        break;
      case 'a':
        // One link collects at a time (nested <a> is invalid HTML), which also bounds the text walk below.
        if (attrs.href !== undefined && this.pendingLink === null && this.links.length < L.links) {
          this.pendingLink = { href: attrs.href.slice(0, L.urlChars), url: this.resolveHttp(attrs.href), text: '' };
          frame.buffer = [];
        }
        break;
      case 'p':
        if (this.skipDepth === 0) frame.buffer = [];
        break;
      default:
        if (/^h[1-6]$/.test(name)) frame.buffer = [];
        else if (BLOCKS.has(name) && this.skipDepth === 0) frame.buffer = [];
    }
    if (frame.buffer !== null || frame.skip) frame.target = this.stack.length - 1;
  }

  ontext(text: string): void {
    // Text goes to every collector up to the nearest block-level one (a link's text also counts for its
    // paragraph), and never leaves a skipped region (a nav's text is not its parent block's).
    let index = this.stack.length > 0 ? this.stack[this.stack.length - 1].target : -1;
    while (index >= 0) {
      const frame = this.stack[index];
      if (frame.buffer !== null && frame.length < L.paragraphChars) {
        frame.buffer.push(text);
        frame.length += text.length;
      }
      if (frame.skip || frame.name !== 'a') break;
      index = index > 0 ? this.stack[index - 1].target : -1;
    }
  }

  onclosetag(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    if (frame.skip) this.skipDepth--;
    if (frame.name === 'svg') this.svgDepth--;
    // Read before counting down: the own text of a <main> or <article> (used as a block) belongs to its region.
    const inMain = this.mainDepth > 0;
    const inArticle = this.articleDepth > 0;
    if (frame.region === 'main') this.mainDepth--;
    if (frame.region === 'article') this.articleDepth--;
    if (frame.buffer === null) return;
    const text = collapseWhitespace(frame.buffer.join(''));
    if (frame.name === 'title') {
      this.title = text.slice(0, L.metaChars);
    } else if (frame.name === 'a') {
      if (this.pendingLink) {
        this.pendingLink.text = text.slice(0, L.linkTextChars);
        this.links.push(this.pendingLink);
        this.pendingLink = null;
      }
    } else if (/^h[1-6]$/.test(frame.name)) {
      if (text !== '' && this.headings.length < L.headings)
        this.headings.push({ level: Number(frame.name[1]), text: text.slice(0, L.headingChars) });
    } else if (text !== '') {
      for (const region of [this.pageText, inMain ? this.mainText : null, inArticle ? this.articleText : null]) {
        if (frame.name === 'p') region?.addParagraph(text);
        else region?.addBlock(text);
      }
    }
  }

  finish(): FixPageContext {
    return {
      url: this.url,
      title: this.title,
      description: this.description,
      h1: this.headings.filter((heading) => heading.level === 1).map((heading) => heading.text),
      headings: this.headings,
      // What the page marks as its main content wins over whatever else it shows first.
      paragraphs: this.mainText.text() ?? this.articleText.text() ?? this.pageText.text() ?? [],
      lang: this.lang,
      canonical: this.canonical,
      images: this.images,
      links: this.links,
      siteName: this.siteName,
      locale: this.locale,
      ogImage: this.ogImage,
      hreflang: this.hreflang,
    };
  }

  private onMeta(attrs: Attributes): void {
    const key = (attrs.name ?? attrs.property ?? '').trim().toLowerCase();
    const content = collapseWhitespace(attrs.content ?? '').slice(0, L.metaChars);
    if (content === '') return;
    if (key === 'description' && this.description === null) this.description = content;
    else if (key === 'og:site_name' && this.siteName === null) this.siteName = content;
    else if (key === 'og:locale' && this.locale === null) this.locale = content;
    else if (key === 'og:image' && this.ogImage === null) this.ogImage = this.resolveHttp(content) ?? content;
  }

  private onLink(attrs: Attributes): void {
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    const href = attrs.href?.trim();
    if (href === undefined) return;
    if (rel.includes('canonical') && this.canonical === null)
      this.canonical = this.resolveHttp(href) ?? href.slice(0, L.urlChars);
    if (rel.includes('alternate') && attrs.hreflang !== undefined && this.hreflang.length < L.hreflang) {
      this.hreflang.push({ lang: attrs.hreflang.trim(), href: this.resolveHttp(href) ?? href.slice(0, L.urlChars) });
    }
  }

  private onImage(attrs: Attributes): void {
    if (this.images.length >= L.images) return;
    // Lazy loaders keep the real URL in data-src and a placeholder (or nothing) in src.
    const src = (
      attrs.src && !attrs.src.startsWith('data:') ? attrs.src : (attrs['data-src'] ?? attrs.src ?? '')
    ).trim();
    if (src === '') return;
    this.images.push({
      src: src.slice(0, L.urlChars),
      url: this.resolveHttp(src),
      alt: attrs.alt === undefined ? null : collapseWhitespace(attrs.alt).slice(0, L.metaChars),
    });
  }

  private resolveHttp(ref: string): string | null {
    const url = parseUrl(ref.trim(), this.base);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
    url.hash = '';
    const href = url.href;
    return href.length <= L.urlChars ? href : null;
  }
}

/**
 * Chrome named by its attributes: a menu, breadcrumb trail or skip link anywhere (class, id, aria-label,
 * schema.org BreadcrumbList); a site header, footer or sidebar outside the main content; a consent or
 * cookie banner.
 */
function isChromeByName(attrs: Attributes, role: string, inContent: boolean): boolean {
  const names = `${attrs.id ?? ''} ${attrs.class ?? ''}`;
  if (BANNER_RE.test(`${names} ${role === 'dialog' || role === 'alertdialog' ? 'modal' : ''}`)) return true;
  if (/breadcrumb/i.test(`${attrs['aria-label'] ?? ''} ${attrs.itemtype ?? ''}`)) return true;
  return names
    .split(/\s+/)
    .some((word) => word !== '' && (CHROME_NAME_RE.test(word) || (!inContent && SITE_CHROME_NAME_RE.test(word))));
}

/** Adds a non-empty text while the count and the character budget allow; returns the characters used. */
function pushBounded(list: string[], text: string, used: number): number {
  if (text === '' || list.length >= L.paragraphs || used >= L.paragraphChars) return used;
  const room = L.paragraphChars - used;
  const kept = text.length <= room ? text : text.slice(0, room);
  list.push(kept);
  return used + kept.length;
}

function parseUrl(ref: string, base?: URL | null): URL | null {
  try {
    return base ? new URL(ref, base) : new URL(ref);
  } catch {
    return null;
  }
}
