import { CHECK_THRESHOLDS as T } from '../checks/check-thresholds.js';
import { metaDescriptionTag, proposeDescription, type DescriptionMode } from './description-proposal.js';
import { pageName, pathOf, type FixRuleContext } from './fix-rule-context.js';
import type { FixPageContext, FixProposal } from './fix.types.js';
import { codePointLength, cutAtWord, escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import { proposeTitle, titleTag, type TitleMode } from './title-proposal.js';
import { assignTwinTitles } from './twin-titles.js';

/** The structured data, hreflang, viewport and social codes of issue 28 have their rules in their own module. */
/** The page digest, or a stub carrying what the evidence knows (site checks and stored issues lack HTML). */
export function pageOf(ctx: FixRuleContext, overrides: Partial<FixPageContext> = {}): FixPageContext {
  const base: FixPageContext = ctx.page ?? {
    url: ctx.url,
    title: null,
    description: null,
    h1: [],
    headings: [],
    paragraphs: [],
    lang: null,
    canonical: null,
    images: [],
  };
  return { ...base, ...overrides };
}

export function titleFix(ctx: FixRuleContext, mode: TitleMode, summary: string, why: string[]): FixProposal {
  const current = ctx.evidence.string('title') ?? ctx.page?.title ?? null;
  const proposal = proposeTitle(pageOf(ctx, current !== null ? { title: current } : {}), ctx.url, mode);
  const length = codePointLength(proposal.text);
  const basis = ctx.page?.h1[0] && mode !== 'shorten' ? "the page's h1" : current ? 'the current title' : 'the URL';
  const site = ctx.page?.sitePattern ?? null;
  // The pattern is named only when the proposal carries it (a topic ending in the brand does not).
  const pattern =
    site && (site.position === 'suffix' ? proposal.text.endsWith(site.affix) : proposal.text.startsWith(site.affix))
      ? site
      : null;
  const brandPart = pattern
    ? `the ${pattern.position === 'suffix' ? 'ending' : 'opening'} "${pattern.affix.trim()}" that ` +
      `${pattern.support} of the ${pattern.total} distinct titles of the site's other pages share`
    : 'the site name';
  const prefix = pattern?.position === 'prefix' ? pattern.affix.trim() : null;
  const order = prefix ? `the main keyword right after "${prefix}"` : 'the main keyword first and the brand last';
  const steps = [
    ...why,
    `Set the page's <title> inside <head> to the proposed "${proposal.text}" (${length} characters), ` +
      `built from ${basis} and ${brandPart}.`,
    proposal.complete
      ? `Adjust the wording if needed, but keep it between ${T.titleMinChars} and ${T.titleMaxChars} ` +
        `characters with ${order}.`
      : `The page offers too little text for a complete title: extend it to at least ${T.titleMinChars} ` +
        `characters with what the page offers (product, service or topic) ` +
        `${prefix ? `after "${prefix}"` : 'before the brand'}.`,
    "If a CMS or SEO plugin generates the title, change its title template or the page's SEO title field " +
      'rather than the theme markup.',
  ];
  return { summary, steps, code: titleTag(proposal.text) };
}

/**
 * META_TITLE_DUPLICATE with the pages sharing the title known: this page's title from assignTwinTitles, which gives
 * each twin a different one (from its h1, then the URL segments that set it apart) that no page of the site has.
 */
export function twinTitleFix(
  ctx: FixRuleContext,
  twins: { url: string; h1: string | null }[],
  why: string[],
): FixProposal {
  const assigned = assignTwinTitles(twins, new Set(ctx.page?.takenTitles ?? []), ctx.page);
  const title = assigned.get(ctx.url)!;
  const others = twins
    .filter((twin) => twin.url !== ctx.url)
    .slice(0, 3)
    .map((twin) => `"${assigned.get(twin.url)}" for ${shorten(twin.url, 80)}`);
  const length = codePointLength(title);
  return {
    summary: `Give ${pageName(ctx)} a title of its own: "${shorten(title, 80)}"`,
    steps: [
      ...why,
      `Set the page's <title> inside <head> to the proposed "${title}" (${length} characters), drawn from what ` +
        'sets this page apart from the others with the same title (its h1, else its URL); no other page of the ' +
        'site has it.',
      `The other pages get titles of their own too: ${others.join('; ')}${twins.length > 4 ? '; …' : ''}.`,
      "If a CMS or SEO plugin generates the title, change its title template or the page's SEO title field " +
        'rather than the theme markup.',
    ],
    code: titleTag(title),
  };
}

export function descriptionFix(
  ctx: FixRuleContext,
  mode: DescriptionMode,
  summary: string,
  why: string[],
): FixProposal {
  const current = ctx.evidence.string('description') ?? ctx.page?.description ?? null;
  const proposal = proposeDescription(pageOf(ctx, current !== null ? { description: current } : {}), ctx.url, mode);
  const length = codePointLength(proposal.text);
  const origin =
    proposal.source === 'page-text'
      ? "drawn from the page's opening text"
      : proposal.source === 'existing'
        ? 'based on the current description'
        : "built from the page's headings";
  const steps = [
    ...why,
    `Put one meta description in <head>: the proposed text (${length} characters) is ${origin}.`,
    proposal.complete
      ? `Rewrite it as a pitch if needed: what the page offers and why to click, main keyword ` +
        `early, ${T.descriptionMinChars}–${T.descriptionMaxChars} characters.`
      : `The page has little text, so the proposal is only ${length} characters: extend it to at ` +
        `least ${T.descriptionMinChars} characters describing what a visitor finds here.`,
    "If a CMS or SEO plugin writes the description, set it in the page's SEO description field so it " +
      'survives template updates.',
  ];
  return { summary, steps, code: metaDescriptionTag(proposal.text) };
}

export function hreflangTags(entries: { lang: string; href: string }[]): string {
  return entries
    .map((entry) => `<link rel="alternate" hreflang="${escapeHtml(entry.lang)}" href="${escapeHtml(entry.href)}">`)
    .join('\n');
}

/** A JSON-LD value for a required property, from what the page shows where possible ("…" = fill in). */
export function requiredPropertyExample(type: string, property: string, ctx: FixRuleContext): unknown {
  const name = ctx.page?.h1[0] ?? ctx.page?.title ?? phraseFromPath(ctx.path);
  switch (property) {
    case 'name':
      return name || '…';
    case 'headline':
      return cutAtWord(name || '…', 110);
    case 'offers':
      return {
        '@type': 'Offer',
        price: '…',
        priceCurrency: '…',
        availability: 'https://schema.org/InStock',
        url: ctx.url,
      };
    case 'one of offers/review/aggregateRating':
      return {
        '@type': 'Offer',
        price: '…',
        priceCurrency: '…',
        availability: 'https://schema.org/InStock',
        url: ctx.url,
      };
    case 'mainEntity': {
      const questions = (ctx.page?.headings ?? []).filter((heading) => heading.text.trim().endsWith('?')).slice(0, 3);
      const list = questions.length > 0 ? questions.map((q) => q.text) : ['…'];
      return list.map((question) => ({
        '@type': 'Question',
        name: question,
        acceptedAnswer: { '@type': 'Answer', text: '…' },
      }));
    }
    case 'author':
      return { '@type': 'Person', name: '…' };
    case 'itemReviewed':
      return { '@type': 'Thing', name: name || '…' };
    case 'reviewRating':
      return { '@type': 'Rating', ratingValue: '…', bestRating: '5' };
    case 'itemListElement':
      return breadcrumbItems(ctx);
    default:
      return type === 'BreadcrumbList' ? breadcrumbItems(ctx) : '…';
  }
}

/** Breadcrumb entries from the URL path: home, each folder, then the page. */
function breadcrumbItems(ctx: FixRuleContext): unknown[] {
  const segments = pathOf(ctx.url).split('?')[0].split('/').filter(Boolean).slice(0, 5);
  const items: unknown[] = [{ '@type': 'ListItem', position: 1, name: 'Home', item: `${ctx.origin}/` }];
  let path = '';
  segments.forEach((segment, index) => {
    path += `/${segment}`;
    const last = index === segments.length - 1;
    const name = last && ctx.page?.h1[0] ? ctx.page.h1[0] : phraseFromPath(segment) || segment;
    items.push({ '@type': 'ListItem', position: index + 2, name, item: `${ctx.origin}${path}${last ? '' : '/'}` });
  });
  return items;
}
