import { CHECK_THRESHOLDS as T, type CheckCode } from '../checks/index.js';
import { fieldOf, numberOf } from './fix-evidence.js';
import { HYGIENE_CONTENT_FIX_RULES } from './hygiene-fix-rules.js';
import {
  absoluteUrl,
  formatBytes,
  inlineList,
  pageName,
  pathOf,
  plural,
  type FixRule,
  type FixRuleContext,
} from './fix-rule-context.js';
import type { FixImage } from './fix.types.js';
import { altFromFileName } from './image-alt-proposal.js';
import { brandFromHost, collapseWhitespace, cutAtWord, escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import { titleTopic } from './title-proposal.js';

type ContentCode = Extract<CheckCode, `CONTENT_${string}`>;

/** The page's subject for generated text: h1, title topic, or the URL's last segment. */
function topicOf(ctx: FixRuleContext): string {
  const fromPage = ctx.page?.h1[0] || (ctx.page?.title ? titleTopic(ctx.page.title) : '');
  return fromPage || phraseFromPath(pathOf(ctx.url).split('?')[0]) || brandFromHost(ctx.host) || ctx.url;
}

/** The image as the page writes it, matched by resolved URL or by src. */
function findImage(ctx: FixRuleContext, ref: string): FixImage | undefined {
  return ctx.page?.images.find((image) => image.url === ref || image.src === ref);
}

/**
 * Of a set of duplicate URLs, the one to keep: fewest query parameters, then shortest path.
 * A heuristic; the steps tell the user to confirm it.
 */
function primaryOf(urls: string[]): string {
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

function duplicateFix(
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
function linkTextFor(href: string, ctx: FixRuleContext): string {
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

export const CONTENT_FIX_RULES: Record<ContentCode, FixRule> = {
  CONTENT_H1_MISSING: (ctx) => {
    const topic = cutAtWord(collapseWhitespace(topicOf(ctx)), 70);
    const firstHeading = ctx.page?.headings[0];
    return {
      summary: `Add an <h1> heading: "${shorten(topic, 70)}"`,
      steps: [
        'The page has no <h1>, so it has no visible main heading telling readers and search engines what it is about.',
        `Add one <h1> at the top of the main content; "${shorten(topic, 70)}" is proposed ` +
          `from ${ctx.page?.title ? 'the page title' : 'the URL'}.`,
        firstHeading && firstHeading.level > 1
          ? `The first heading today is an h${firstHeading.level} ("${shorten(firstHeading.text, 60)}"); if ` +
            `it is the page's main heading, change it to <h1> instead.`
          : 'Style it with CSS if the design needs a smaller heading: the level is about structure, not size.',
      ],
      code: `<h1>${escapeHtml(topic)}</h1>`,
    };
  },
  CONTENT_H1_MULTIPLE: (ctx) => {
    const headings = ctx.evidence.strings('headings', 3);
    const list = headings.length > 0 ? headings : (ctx.page?.h1 ?? []).slice(0, 3);
    const count = ctx.evidence.number('count') ?? list.length;
    const [keep, ...demote] = list;
    return {
      summary: keep ? `Keep "${shorten(keep, 60)}" as the only <h1>` : `Reduce the ${count} <h1> headings to one`,
      steps: [
        `The page has ${count} <h1> headings${list.length > 0 ? `: ${inlineList(list, count)}` : ''}.`,
        keep
          ? `Keep "${shorten(keep, 80)}" as the page's single h1 (the main topic).`
          : "Keep the heading that names the page's main topic as h1.",
        demote.length > 0
          ? `Change the others (${inlineList(demote, count - 1)}) to <h2>, keeping their styling with a CSS class.`
          : 'Change the other h1 elements to h2; logos and site names in the header should not be headings at all.',
      ],
      code:
        [keep ? `<h1>${escapeHtml(keep)}</h1>` : '', ...demote.map((text) => `<h2>${escapeHtml(text)}</h2>`)]
          .filter(Boolean)
          .join('\n') || undefined,
    };
  },
  CONTENT_HEADING_SKIP: (ctx) => {
    const from = ctx.evidence.string('from') ?? 'h2';
    const to = ctx.evidence.string('to') ?? 'h4';
    const text = ctx.evidence.string('text') ?? '';
    const fromLevel = Number(from.replace(/\D/g, '')) || 2;
    const fixed = `h${Math.min(fromLevel + 1, 6)}`;
    return {
      summary: `Change the ${to}${text ? ` "${shorten(text, 50)}"` : ''} to ${fixed} (it follows an ${from})`,
      steps: [
        `The heading outline jumps from ${from} to ${to}${text ? ` at "${shorten(text, 80)}"` : ''}, so ` +
          `assistive technology reports a missing level.`,
        `Make it an <${fixed}> and keep its look with a CSS class if the design needs the smaller size.`,
        'Check the headings after it: sub-headings below it should move up one level too.',
      ],
      code: text ? `<${fixed}>${escapeHtml(text)}</${fixed}>` : undefined,
    };
  },
  CONTENT_THIN: (ctx) => {
    const words = ctx.evidence.number('words') ?? 0;
    const missing = Math.max(T.thinContentWords - words, 0);
    const sections = (ctx.page?.headings ?? [])
      .filter((heading) => heading.level >= 2)
      .slice(0, 4)
      .map((heading) => heading.text);
    return {
      summary: `Expand ${pageName(ctx)} by at least ${missing} words, or keep it out of the index`,
      steps: [
        `The page has ${words} words of visible text; pages under ${T.thinContentWords} words rarely rank ` +
          `and may be treated as low quality.`,
        sections.length > 0
          ? `Develop the existing sections ${inlineList(sections)} with specifics: what, for whom, how it ` +
            `works, prices or numbers, and answers to common questions.`
          : `Add sections that answer what a visitor looking for "${shorten(topicOf(ctx), 60)}" wants to ` +
            `know: details, use cases, comparisons and FAQs.`,
        'If the page is not meant to rank (tag archive, filter result, thank-you page), add the noindex tag ' +
          'below instead, or merge it into a fuller page and redirect.',
      ],
      code: '<meta name="robots" content="noindex, follow">',
    };
  },
  CONTENT_DUPLICATE: (ctx) => {
    const sameAs = ctx.evidence.strings('sameAs', 3);
    return duplicateFix(
      ctx,
      sameAs,
      (primary) =>
        primary === ctx.url
          ? 'Keep this page and canonicalize its duplicates to it'
          : `Canonicalize this duplicate to ${shorten(primary, 100)}`,
      `This page's text is identical to ${
        sameAs.length > 0
          ? inlineList(sameAs, ctx.evidence.number('duplicates') ?? sameAs.length)
          : 'another indexable page'
      }; search engines pick one and filter the rest.`,
    );
  },
  CONTENT_NEAR_DUPLICATE: (ctx) => {
    const similar = ctx.evidence.string('similarTo');
    const similarity = ctx.evidence.number('similarity');
    const primary = similar ? primaryOf([ctx.url, similar]) : ctx.url;
    const other = similar ? shorten(similar, 120) : 'the similar page';
    return {
      summary:
        `Differentiate this page from ${similar ? shorten(similar, 100) : 'its near duplicate'}, or ` +
        `consolidate the two`,
      steps: [
        `This page is ${similarity !== null ? `${similarity}% ` : ''}similar to ${other}: mostly the same ` +
          `template and text with few differences, so search engines may show only one of them.`,
        `If the two pages are about different things, make this one specific: rewrite its intro ` +
          `for ${pageName(ctx)}, add details only it has (specifications, examples, photos, FAQs) and ` +
          `shrink the shared boilerplate blocks.`,
        primary === ctx.url
          ? `If they are the same thing (variants, parameters, print versions), keep this URL and add a ` +
            `canonical link to it on ${other}, or 301-redirect that page here.`
          : `If they are the same thing (variants, parameters, print versions), canonicalize this page ` +
            `to ${shorten(primary, 120)} (tag below) or 301-redirect it there.`,
      ],
      code: `<link rel="canonical" href="${escapeHtml(primary)}">`,
    };
  },
  CONTENT_IMAGE_ALT_MISSING: (ctx) => {
    const refs = ctx.evidence.strings('images', 10);
    const fromPage =
      refs.length > 0
        ? []
        : (ctx.page?.images ?? [])
            .filter((image) => image.alt === null)
            .slice(0, 10)
            .map((image) => image.url ?? image.src);
    const images = refs.length > 0 ? refs : fromPage;
    const count = ctx.evidence.number('count') ?? images.length;
    const topic = shorten(topicOf(ctx), 60);
    const rows = images.map((ref) => {
      const image = findImage(ctx, ref);
      const alt = altFromFileName(ref);
      return { ref, src: image?.src ?? ref, alt, suggested: alt ?? `${topic} (describe the picture)` };
    });
    return {
      summary: `Add alt text to ${plural(count || rows.length, 'image')}`,
      steps: [
        ...rows
          .slice(0, 6)
          .map((row) =>
            row.alt
              ? `${shorten(row.ref, 140)}: alt="${row.alt}" (from the file name; check it matches the picture).`
              : `${shorten(row.ref, 140)}: the file name says nothing; describe what the picture shows in ` +
                `the context of "${topic}".`,
          ),
        'Describe what the image shows in one short phrase (under 100 characters); use alt="" for purely ' +
          'decorative images so screen readers skip them.',
      ],
      code:
        rows.map((row) => `<img src="${escapeHtml(row.src)}" alt="${escapeHtml(row.suggested)}">`).join('\n') ||
        undefined,
    };
  },
  CONTENT_IMAGE_ALT_TOO_LONG: (ctx) => {
    const entries = ctx.evidence.records('images', 5);
    const rows = entries.map((entry) => {
      const src = fieldOf(entry, 'src') ?? '';
      const image = findImage(ctx, src);
      const alt = image?.alt ?? null;
      const firstSentence = alt ? /^(.{10,100}?[.!?])(\s|$)/.exec(alt)?.[1] : undefined;
      return {
        src,
        written: image?.src ?? src,
        length: numberOf(entry, 'length'),
        alt,
        shorter: alt ? (firstSentence ?? cutAtWord(alt, T.maxAltChars)) : null,
      };
    });
    return {
      summary:
        `Shorten the alt text of ${plural(ctx.evidence.number('count') ?? rows.length, 'image')} ` +
        `to ${T.maxAltChars} characters or fewer`,
      steps: [
        ...rows.map((row) =>
          row.shorter
            ? `${shorten(row.src, 120)} (${row.length ?? row.alt?.length} characters): use alt="${row.shorter}".`
            : `${shorten(row.src, 120)} has ${row.length ?? 'over 100'} characters of alt text: keep only ` +
              `what the picture shows.`,
        ),
        'Screen readers read alt text in one go; move long explanations into a visible <figcaption> or the ' +
          'surrounding text.',
      ],
      code:
        rows
          .filter((row) => row.shorter)
          .map((row) => `<img src="${escapeHtml(row.written)}" alt="${escapeHtml(row.shorter!)}">`)
          .join('\n') || undefined,
    };
  },
  CONTENT_IMAGE_BROKEN: (ctx) => {
    const images = ctx.evidence
      .records('images', 5)
      .map((entry) => ({
        url: fieldOf(entry, 'url') ?? '',
        status: numberOf(entry, 'status'),
        error: fieldOf(entry, 'error'),
      }))
      .filter((image) => image.url);
    const count = ctx.evidence.number('count') ?? images.length;
    return {
      summary: `Replace ${plural(count || images.length, 'broken image')} on ${pageName(ctx)}`,
      steps: [
        ...images.map(
          (image) =>
            `${shorten(image.url, 120)} ${
              image.status !== null ? `answers ${image.status}` : `cannot be fetched (${image.error ?? 'no response'})`
            }: upload the file again or point the <img> (and its srcset) at the image's current address.`,
        ),
        'Visitors see an empty box or the alt text instead of the picture, and image search cannot index it.',
        'If the image is gone for good, remove the element rather than leaving a dead reference.',
      ],
    };
  },
  CONTENT_LINK_TEXT_GENERIC: (ctx) => {
    const links = ctx.evidence
      .records('links', 5)
      .map((entry) => ({ href: fieldOf(entry, 'href') ?? '', text: fieldOf(entry, 'text') ?? '' }));
    const rows = links.map((link) => ({ ...link, better: linkTextFor(link.href, ctx) }));
    return {
      summary: `Replace generic link text ${inlineList(
        rows.map((row) => row.text).filter(Boolean),
        ctx.evidence.number('count') ?? rows.length,
      )} with descriptive words`,
      steps: [
        ...rows.map(
          (row) =>
            `The link "${shorten(row.text, 40)}" to ${shorten(row.href, 120)}: say where it goes, e.g. ` +
            `"${row.better}".`,
        ),
        'Anchor text tells search engines and screen-reader users what the target is about; when the design ' +
          'needs the short text, keep it and add an aria-label with the full description.',
      ],
      code:
        rows.map((row) => `<a href="${escapeHtml(row.href)}">${escapeHtml(row.better)}</a>`).join('\n') || undefined,
    };
  },
  CONTENT_DUPLICATE_ID: (ctx) => {
    const sample = ctx.evidence.strings('sample', 5);
    const count = ctx.evidence.number('count') ?? sample.length;
    return {
      summary:
        `Make ${plural(count, 'duplicated id')} ` +
        `unique${sample.length > 0 ? ` (${inlineList(sample, count)})` : ''}`,
      steps: [
        `${sample.length > 0 ? `The ids ${inlineList(sample, count)} are` : 'Some ids are'} used by more ` +
          `than one element; labels, anchors (#id links) and aria references then point at the ` +
          `first one only.`,
        'Give each repeated element its own id (for example a suffix per occurrence), or use a class when ' +
          'the id only serves styling.',
        'Update everything that references the renamed ids: <label for>, aria-labelledby/aria-describedby, ' +
          'href="#…" links, CSS and scripts.',
      ],
      code:
        sample.length > 0
          ? sample
              .map((id) => `<!-- second element that has id="${escapeHtml(id)}" -->\nid="${escapeHtml(id)}-2"`)
              .join('\n')
          : undefined,
    };
  },
  CONTENT_LOW_TEXT_RATIO: (ctx) => {
    const ratio = ctx.evidence.number('ratio');
    const textBytes = ctx.evidence.number('textBytes');
    const htmlBytes = ctx.evidence.number('htmlBytes');
    const target = textBytes !== null ? textBytes / T.minTextRatio : null;
    return {
      summary:
        `Raise the visible-text share of ${pageName(ctx)} ` +
        `above ${T.minTextRatio * 100}%${ratio !== null ? ` (now ${(ratio * 100).toFixed(1)}%)` : ''}`,
      steps: [
        textBytes !== null && htmlBytes !== null
          ? `Only ${formatBytes(textBytes)} of the ${formatBytes(htmlBytes)} HTML is visible text.`
          : 'Most of the HTML is markup, scripts and styles rather than readable text.',
        target !== null && htmlBytes !== null && target < htmlBytes
          ? `Shrink the markup to about ${formatBytes(target)}: move inline <script> and <style> blocks ` +
            `into cached external files, drop inline SVG sprites and base64 images, and trim serialized ` +
            `state (large JSON in the page).`
          : 'Move inline <script> and <style> blocks into external files, drop inline SVG sprites and base64 ' +
            'images, and trim serialized JSON state.',
        'Where the page is genuinely thin, add useful text as well; the ratio itself is a hint, the missing ' +
          'text is what hurts.',
      ],
    };
  },
  // Images, security headers, redirects, soft 404s, URLs and link texts (hygiene-fix-rules.ts)
  ...HYGIENE_CONTENT_FIX_RULES,
};
