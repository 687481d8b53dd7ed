/**
 * The generated site both crawlers visit: N article pages (~12 KB each) with a realistic head, ~30 internal
 * links, a few images and headings. Everything is derived from (seed, page index), so every request for a
 * page returns the same bytes, whichever crawler asks and in whatever order.
 */
import { prng } from '../support/prng.js';

export interface SiteSpec {
  pages: number;
  seed: number;
  /** Publish /sitemap.xml (listing every page) and name it in robots.txt. */
  sitemap: boolean;
}

/** Distinct image URLs across the site: pages share them, like a real media library. */
export const IMAGE_POOL = 300;
const NAV_PAGES = 7;
const FOOTER_PAGES = 4;
const IN_TEXT_LINKS = 9;
const RELATED_LINKS = 10;
const PARAGRAPHS = 13;

const WORDS = (
  'search engine audit crawl index page content link anchor title description canonical sitemap robots header ' +
  'performance speed mobile layout image caption article section chapter topic keyword ranking visitor traffic ' +
  'market product service customer review guide tutorial question answer example detail summary overview update ' +
  'garden kitchen travel mountain river city coffee bicycle camera window library museum history science nature ' +
  'quickly carefully simply often rarely usually clearly really almost always never together between without ' +
  'improve measure compare explain discover consider create publish maintain follow deliver arrange collect ' +
  'the a of and to in for with on by from about into over after before during under around'
).split(' ');
const SECTIONS = ['Guides', 'Reviews', 'Travel', 'Kitchen', 'Garden', 'Science', 'History'];

const pageRandom = (spec: SiteSpec, index: number, salt = 0) =>
  prng((spec.seed * 2654435761) ^ (index * 40503) ^ (salt * 97));

function words(rand: () => number, count: number): string[] {
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = WORDS[Math.floor(rand() * WORDS.length)];
  return out;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Page 0 is the home page; the others live under /articles/<n>-<slug>. */
export function pagePath(spec: SiteSpec, index: number): string {
  if (index === 0) return '/';
  const slug = words(pageRandom(spec, index, 1), 4).join('-');
  return `/articles/${index}-${slug}`;
}

/** The page index a path names, or null (unknown paths are 404s, so a mangled link shows up in the results). */
export function pageIndexOf(spec: SiteSpec, path: string): number | null {
  if (path === '/') return 0;
  const m = /^\/articles\/(\d+)-/.exec(path);
  if (!m) return null;
  const index = Number(m[1]);
  if (!Number.isSafeInteger(index) || index <= 0 || index >= spec.pages) return null;
  return pagePath(spec, index) === path ? index : null;
}

export function pageTitle(spec: SiteSpec, index: number): string {
  if (index === 0) return 'Bench Site: articles, guides and reviews';
  if (index <= NAV_PAGES) return `${SECTIONS[index - 1]} | Bench Site`;
  const rand = pageRandom(spec, index, 2);
  const title = words(rand, 4 + Math.floor(rand() * 3))
    .map(capitalize)
    .join(' ');
  // A few pages carry the issues a real site has: over-long titles.
  return index % 23 === 7 ? `${title} ${words(rand, 12).join(' ')} | Bench Site` : `${title} (${index}) | Bench Site`;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function linkTarget(spec: SiteSpec, rand: () => number, self: number): number {
  for (;;) {
    const target = Math.floor(rand() * spec.pages);
    if (target !== self) return target;
  }
}

/**
 * The HTML of one page. `origin` (scheme://host:port as the client asked for it) is used only where sites
 * write absolute URLs (canonical, og:url, og:image); links are root-relative.
 */
export function renderPage(spec: SiteSpec, index: number, origin: string): string {
  const rand = pageRandom(spec, index, 3);
  const path = pagePath(spec, index);
  const title = pageTitle(spec, index);
  const heading = title.replace(/ \| Bench Site$/, '');
  const description = `${capitalize(words(rand, 22).join(' '))}.`.slice(0, 155);
  const image = (k: number) => `/img/${k}.png`;
  const heroImage = Math.floor(rand() * IMAGE_POOL);
  const link = (target: number, text?: string) =>
    `<a href="${pagePath(spec, target)}">` +
    `${escapeHtml(text ?? pageTitle(spec, target).replace(/ \| Bench Site$/, ''))}</a>`;

  const out: string[] = [];
  out.push(
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
    `<title>${escapeHtml(title)}</title>\n`,
  );
  // Every 17th page lacks a meta description (another common issue).
  if (index % 17 !== 5) out.push(`<meta name="description" content="${escapeHtml(description)}">\n`);
  out.push(
    `<link rel="canonical" href="${origin}${path}">\n`,
    '<meta property="og:type" content="article">\n',
    `<meta property="og:title" content="${escapeHtml(heading)}">\n`,
    `<meta property="og:description" content="${escapeHtml(description)}">\n`,
    `<meta property="og:url" content="${origin}${path}">\n`,
    `<meta property="og:image" content="${origin}${image(heroImage)}">\n`,
    '<meta name="twitter:card" content="summary_large_image">\n',
    '<link rel="icon" href="/favicon.ico">\n<link rel="stylesheet" href="/static/site.css">\n',
    `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article",` +
      `"headline":${JSON.stringify(heading)},` +
      `"datePublished":"2024-0${1 + (index % 9)}-1${index % 10}","image":"${origin}${image(heroImage)}"}</script>\n`,
    '</head>\n<body>\n<header class="site-header"><a class="logo" href="/">Bench Site</a>\n<nav><ul>',
  );
  for (let n = 1; n <= NAV_PAGES; n++) out.push(`<li>${link(n, SECTIONS[n - 1])}</li>`);
  out.push('</ul></nav>\n</header>\n<main>\n<article>\n', `<h1>${escapeHtml(heading)}</h1>\n`);

  const images = 3 + (index % 2);
  let inText = IN_TEXT_LINKS;
  for (let p = 0; p < PARAGRAPHS; p++) {
    if (p % 4 === 1)
      out.push(`<h2>${escapeHtml(capitalize(words(rand, 3 + Math.floor(rand() * 3)).join(' ')))}</h2>\n`);
    else if (p % 4 === 3)
      out.push(`<h3>${escapeHtml(capitalize(words(rand, 3 + Math.floor(rand() * 4)).join(' ')))}</h3>\n`);
    const sentence = words(rand, 60 + Math.floor(rand() * 30));
    let text = `${capitalize(sentence.join(' '))}.`;
    if (inText > 0 && p % 2 === 0) {
      text += ` See also ${link(linkTarget(spec, rand, index))}`;
      inText--;
      if (inText > 0) {
        text += ` and ${link(linkTarget(spec, rand, index))}.`;
        inText--;
      } else text += '.';
    }
    out.push(`<p>${text}</p>\n`);
    if (p % 3 === 2 && p / 3 < images) {
      const k = p === 2 ? heroImage : Math.floor(rand() * IMAGE_POOL);
      const w = 320 + 80 * Math.floor(rand() * 8);
      // Every 13th page has one image without alt text.
      const alt = index % 13 === 4 && p === 5 ? '' : ` alt="${escapeHtml(capitalize(words(rand, 5).join(' ')))}"`;
      out.push(
        `<figure><img src="${image(k)}"${alt} width="${w}" height="${Math.round(w * 0.625)}" ` +
          `loading="lazy"><figcaption>${escapeHtml(capitalize(words(rand, 6).join(' ')))}</figcaption>` +
          `</figure>\n`,
      );
    }
  }
  out.push('</article>\n<aside class="related"><h2>Related articles</h2><ul>\n');
  for (let r = 0; r < RELATED_LINKS; r++) out.push(`<li>${link(linkTarget(spec, rand, index))}</li>\n`);
  out.push('</ul></aside>\n</main>\n<footer><ul>');
  for (let f = 0; f < FOOTER_PAGES; f++) {
    const target = NAV_PAGES + 1 + f;
    if (target < spec.pages) out.push(`<li>${link(target)}</li>`);
  }
  out.push('</ul><p>&copy; 2024 Bench Site. All rights reserved.</p></footer>\n</body>\n</html>\n');
  return out.join('');
}

export function renderRobots(spec: SiteSpec, origin: string): string {
  const rules = 'User-agent: *\nAllow: /\nDisallow: /search\n';
  return spec.sitemap ? `${rules}\nSitemap: ${origin}/sitemap.xml\n` : rules;
}

/** Every page, as a real CMS publishes it. */
export function renderSitemap(spec: SiteSpec, origin: string): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = 0; i < spec.pages; i++)
    out.push(`<url><loc>${origin}${pagePath(spec, i)}</loc><lastmod>2024-06-01</lastmod></url>\n`);
  out.push('</urlset>\n');
  return out.join('');
}

/** A valid 1x1 PNG: what the images' URLs serve. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
