import { Parser } from 'htmlparser2';
import { FIX_LIMITS as L, type FixHeading, type FixImage, type FixLink, type FixPageContext } from './fix.types.js';
import { collapseWhitespace } from './markup-text.js';

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
/** Page chrome: its text is not what the page is about. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'form', 'dialog']);
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
}

/**
 * Reads the bounded page digest the fix engines use from an HTML document (one htmlparser2 pass, no
 * DOM): title, meta description, headings, the first visible paragraphs, lang, canonical, images,
 * links, og:site_name/locale/image and hreflang. Every collection is capped (FIX_LIMITS).
 */
export function extractFixContext(html: string, url: string): FixPageContext {
  const collector = new FixContextCollector(url);
  const parser = new Parser(collector, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return collector.finish();
}

class FixContextCollector {
  private readonly stack: Frame[] = [];
  private skipDepth = 0;
  private svgDepth = 0;
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
  private readonly paragraphs: string[] = [];
  private readonly blocks: string[] = [];
  private paragraphChars = 0;
  private blockChars = 0;
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
    const banner = BANNER_RE.test(`${attrs.id ?? ''} ${attrs.class ?? ''} ${attrs.role === 'dialog' ? 'modal' : ''}`);
    const skip = RAW_TEXT.has(name) || CHROME.has(name) || hidden || banner;
    if (skip) this.skipDepth++;
    if (name === 'svg') this.svgDepth++;
    const parentTarget = this.stack.length > 0 ? this.stack[this.stack.length - 1].target : -1;
    const frame: Frame = { name, skip, buffer: null, length: 0, target: parentTarget };
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
    } else if (frame.name === 'p') {
      this.paragraphChars = pushBounded(this.paragraphs, text, this.paragraphChars);
    } else if (text !== '') {
      this.blockChars = pushBounded(this.blocks, text, this.blockChars);
    }
  }

  finish(): FixPageContext {
    return {
      url: this.url,
      title: this.title,
      description: this.description,
      h1: this.headings.filter((heading) => heading.level === 1).map((heading) => heading.text),
      headings: this.headings,
      paragraphs: this.paragraphs.length > 0 ? this.paragraphs : this.blocks,
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
