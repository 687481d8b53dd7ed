import { type FixRuleContext } from './fix-rule-context.js';
import { escapeHtml } from './markup-text.js';

export const AI_SEARCH_AGENTS = ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Claude-User'];

export function site(ctx: FixRuleContext): string {
  return ctx.origin || 'https://your-site';
}

export function robotsTxt(ctx: FixRuleContext, extra: string[] = []): string {
  return ['User-agent: *', 'Allow: /', ...extra, '', `Sitemap: ${site(ctx)}/sitemap.xml`].join('\n');
}

export function canonicalTag(url: string): string {
  return `<link rel="canonical" href="${escapeHtml(url)}">`;
}

export function withPath(ctx: FixRuleContext, path: string): string {
  try {
    const parsed = new URL(ctx.url);
    parsed.pathname = path;
    return parsed.href;
  } catch {
    return path;
  }
}

/** A short hyphenated slug from the page's topic ("Oak Tables & Chairs" -> "oak-tables-chairs"). */
export function slugOf(text: string, maxWords = 6): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(
      (word) => word !== '' && !['a', 'an', 'the', 'and', 'or', 'of', 'for', 'to', 'in', 'on', 'with'].includes(word),
    )
    .slice(0, maxWords)
    .join('-');
}
