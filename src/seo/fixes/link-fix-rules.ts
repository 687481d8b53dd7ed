import { type FixRuleContext } from './fix-rule-context.js';
import { escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import { pathOnly } from './server-config-snippets.js';

/** The anchor text the page uses for a target URL, for telling the user which link to edit. */
export function anchorOf(ctx: FixRuleContext, url: string): string | null {
  const link = ctx.page?.links?.find((entry) => entry.url === url || entry.href === url);
  return link && link.text !== '' ? link.text : null;
}

export function linkLabel(ctx: FixRuleContext, url: string): string {
  const anchor = anchorOf(ctx, url);
  return anchor ? `the link "${shorten(anchor, 50)}" (${shorten(url, 120)})` : shorten(url, 140);
}

export function sameSite(ctx: FixRuleContext, url: string): boolean {
  try {
    return new URL(url).hostname.replace(/^www\./, '') === ctx.host.replace(/^www\./, '');
  } catch {
    return false;
  }
}

/** "301 https://a" -> { status: 301, url }, a bare URL (the final one) -> { status: null, url }. */
export function parseChain(chain: string[]): { status: number | null; url: string }[] {
  return chain.map((entry) => {
    const match = /^(\d{3})\s+(\S.*)$/.exec(entry);
    return match ? { status: Number(match[1]), url: match[2] } : { status: null, url: entry };
  });
}

/** Breadcrumb navigation for the page from its URL path. */
export function breadcrumbNav(ctx: FixRuleContext): string {
  const segments = pathOnly(ctx.url).split('/').filter(Boolean).slice(0, 5);
  const items = [`  <li><a href="/">Home</a></li>`];
  let path = '';
  segments.forEach((segment, index) => {
    path += `/${segment}`;
    const last = index === segments.length - 1;
    const name = last && ctx.page?.h1[0] ? ctx.page.h1[0] : phraseFromPath(segment) || segment;
    items.push(
      last
        ? `  <li aria-current="page">${escapeHtml(name)}</li>`
        : `  <li><a href="${escapeHtml(`${path}/`)}">${escapeHtml(name)}</a></li>`,
    );
  });
  return `<nav aria-label="Breadcrumb">\n<ol>\n${items.join('\n')}\n</ol>\n</nav>`;
}

export function linkToThisPage(ctx: FixRuleContext): string {
  const text = ctx.page?.h1[0] ?? ctx.page?.title ?? (phraseFromPath(pathOnly(ctx.url)) || ctx.url);
  return `<a href="${escapeHtml(ctx.url)}">${escapeHtml(shorten(text, 80))}</a>`;
}
