import { absoluteUrl, inlineList, pathOf, type FixRuleContext } from './fix-rule-context.js';
import type { FixImage } from './fix.types.js';
import { brandFromHost, escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import { titleTopic } from './title-proposal.js';

/** The page's subject for generated text: h1, title topic, or the URL's last segment. */
export function topicOf(ctx: FixRuleContext): string {
  const fromPage = ctx.page?.h1[0] || (ctx.page?.title ? titleTopic(ctx.page.title) : '');
  return fromPage || phraseFromPath(pathOf(ctx.url).split('?')[0]) || brandFromHost(ctx.host) || ctx.url;
}

/** The image as the page writes it, matched by resolved URL or by src. */
export function findImage(ctx: FixRuleContext, ref: string): FixImage | undefined {
  return ctx.page?.images.find((image) => image.url === ref || image.src === ref);
}

/**
 * Of a set of duplicate URLs, the one to keep: fewest query parameters, then shortest path.
 * A heuristic; the steps tell the user to confirm it.
 */
export function primaryOf(urls: string[]): string {
  const score = (url: string): [number, number] => {
    try {
      const parsed = new URL(url);
      return [[...parsed.searchParams.keys()].length, parsed.pathname.length];
    } catch {
      return [99, url.length];
    }
  };
  return [...urls].sort((a, b) => {
    const [qa, la] = score(a);
    const [qb, lb] = score(b);
    return qa - qb || la - lb || a.localeCompare(b);
  })[0];
}

export function duplicateFix(
  ctx: FixRuleContext,
  others: string[],
  summaryOf: (primary: string) => string,
  lead: string,
): { summary: string; steps: string[]; code: string } {
  const primary = others.length > 0 ? primaryOf([ctx.url, ...others]) : ctx.url;
  const isPrimary = primary === ctx.url;
  const steps = [lead];
  if (isPrimary) {
    steps.push(
      `Keep this page (${shorten(ctx.url, 120)}) as the version to rank: it has the simplest URL of the group.`,
      `On ${others.length > 0 ? inlineList(others) : 'the other copies'}, either 301-redirect to this URL ` +
        `or add a canonical link pointing here.`,
    );
  } else {
    steps.push(
      `Choose one version to rank; ${shorten(primary, 120)} has the simplest URL of the group and is proposed.`,
      `On this page, add a canonical link to it (or 301-redirect this URL to it if visitors do not need both).`,
    );
  }
  steps.push(
    'If the pages should both rank, rewrite this one so it covers its own angle (different intro, details, ' +
      'examples) instead of sharing the text.',
  );
  return { summary: summaryOf(primary), steps, code: `<link rel="canonical" href="${escapeHtml(primary)}">` };
}

/** Readable link text for a URL: its last path segment, or the fragment, or "home page". */
export function linkTextFor(href: string, ctx: FixRuleContext): string {
  const absolute = absoluteUrl(href, ctx.url);
  if (!absolute) return topicOf(ctx);
  const parsed = new URL(absolute);
  const fromPath = phraseFromPath(parsed.pathname);
  if (parsed.hash.length > 1 && parsed.pathname === new URL(ctx.url).pathname)
    return phraseFromPath(parsed.hash.slice(1)) || topicOf(ctx);
  if (fromPath !== '') return fromPath;
  return parsed.hostname === ctx.host
    ? `${brandFromHost(ctx.host)} home page`
    : `${brandFromHost(parsed.hostname)} website`;
}
