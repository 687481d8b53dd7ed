import { CHECK_THRESHOLDS as T, isValidHreflang, type CheckCode } from '../checks/index.js';
import { metaDescriptionTag, proposeDescription, type DescriptionMode } from './description-proposal.js';
import { fieldOf } from './fix-evidence.js';
import {
  absoluteUrl,
  inlineList,
  pageName,
  pathOf,
  plural,
  type FixRule,
  type FixRuleContext,
} from './fix-rule-context.js';
import type { FixPageContext, FixProposal } from './fix.types.js';
import { correctLanguageTag, guessLanguage } from './language-guess.js';
import { codePointLength, collapseWhitespace, cutAtWord, escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import type { StructuredFixCode } from './structured-international-fix-rules.js';
import { brandOf, proposeTitle, titleTag, type TitleMode } from './title-proposal.js';
import { assignTwinTitles } from './twin-titles.js';

/** The structured data, hreflang, viewport and social codes of issue 28 have their rules in their own module. */
type MetaCode = Exclude<Extract<CheckCode, `META_${string}`>, StructuredFixCode>;

/** The page digest, or a stub carrying what the evidence knows (site checks and stored issues lack HTML). */
function pageOf(ctx: FixRuleContext, overrides: Partial<FixPageContext> = {}): FixPageContext {
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

function titleFix(ctx: FixRuleContext, mode: TitleMode, summary: string, why: string[]): FixProposal {
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
function twinTitleFix(ctx: FixRuleContext, twins: { url: string; h1: string | null }[], why: string[]): FixProposal {
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

function descriptionFix(ctx: FixRuleContext, mode: DescriptionMode, summary: string, why: string[]): FixProposal {
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

function hreflangTags(entries: { lang: string; href: string }[]): string {
  return entries
    .map((entry) => `<link rel="alternate" hreflang="${escapeHtml(entry.lang)}" href="${escapeHtml(entry.href)}">`)
    .join('\n');
}

/** A JSON-LD value for a required property, from what the page shows where possible ("…" = fill in). */
function requiredPropertyExample(type: string, property: string, ctx: FixRuleContext): unknown {
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

export const META_FIX_RULES: Record<MetaCode, FixRule> = {
  META_TITLE_MISSING: (ctx) =>
    titleFix(ctx, 'new', `Add a <title> to ${pageName(ctx)}`, [
      'The page has no title (or an empty one), so search engines invent one from the page text and the ' +
        'browser tab shows the URL.',
    ]),
  META_TITLE_TOO_SHORT: (ctx) => {
    const current = ctx.evidence.string('title') ?? ctx.page?.title ?? '';
    return titleFix(
      ctx,
      'extend',
      `Lengthen the title "${shorten(current, 60)}" to ${T.titleMinChars}–${T.titleMaxChars} characters`,
      [
        `The current title "${shorten(current, 80)}" has ${codePointLength(current)} characters, too few ` +
          `to describe the page and its keywords.`,
      ],
    );
  },
  META_TITLE_TOO_LONG: (ctx) => {
    const current = ctx.evidence.string('title') ?? ctx.page?.title ?? '';
    return titleFix(
      ctx,
      'shorten',
      `Shorten the ${codePointLength(current)}-character title to at most ${T.titleMaxChars} characters`,
      [
        `The current title "${shorten(current, 100)}" is ${codePointLength(current)} characters; results ` +
          `truncate it after about ${T.titleMaxChars}.`,
      ],
    );
  },
  META_TITLE_MULTIPLE: (ctx) => {
    const titles = ctx.evidence.strings('titles', 3);
    const count = ctx.evidence.number('count') ?? titles.length;
    const keep = titles.find((title) => {
      const length = codePointLength(title.trim());
      return length >= T.titleMinChars && length <= T.titleMaxChars;
    });
    const text = keep?.trim() ?? proposeTitle(pageOf(ctx), ctx.url, 'new').text;
    return {
      summary: `Keep one <title> element instead of ${count}`,
      steps: [
        titles.length > 0
          ? `The page has ${count} <title> elements: ${inlineList(titles, count)}.`
          : `The page has ${count} <title> elements.`,
        `Keep a single <title> in <head>${keep ? ' (the one that already fits the length band)' : ''}: "${text}".`,
        'Delete the others: they usually come from a theme and an SEO plugin both printing a title, or from ' +
          'an included partial that carries its own <head> markup.',
      ],
      code: titleTag(text),
    };
  },
  META_TITLE_DUPLICATE: (ctx) => {
    const sameAs = ctx.evidence.strings('sameAs', 3);
    const others = ctx.evidence.number('duplicates') ?? sameAs.length;
    const why = [
      `${plural(others, 'other page')} ${others === 1 ? 'uses' : 'use'} the same ` +
        `title${sameAs.length > 0 ? `, for example ${inlineList(sameAs, others)}` : ''}; search engines ` +
        `then struggle to tell which page answers a query.`,
      "Write each title from the page's own subject (its h1) rather than from a shared template.",
    ];
    const twins = ctx.page?.titleTwins ?? [];
    if (twins.length < 2 || !twins.some((twin) => twin.url === ctx.url))
      return titleFix(ctx, 'new', `Give ${pageName(ctx)} a title of its own`, why);
    return twinTitleFix(ctx, twins, why);
  },
  META_DESCRIPTION_MISSING: (ctx) =>
    descriptionFix(ctx, 'new', `Add a meta description to ${pageName(ctx)}`, [
      'Without a description, search engines show a snippet picked from the page, which is often navigation ' +
        'or boilerplate.',
    ]),
  META_DESCRIPTION_TOO_SHORT: (ctx) => {
    const current = ctx.evidence.string('description') ?? ctx.page?.description ?? '';
    return descriptionFix(
      ctx,
      'extend',
      `Lengthen the meta description to ${T.descriptionMinChars}–${T.descriptionMaxChars} characters`,
      [
        `The current description "${shorten(current, 100)}" has ${codePointLength(current)} characters, ` +
          `too short to sell the page in results.`,
      ],
    );
  },
  META_DESCRIPTION_TOO_LONG: (ctx) => {
    const current = ctx.evidence.string('description') ?? ctx.page?.description ?? '';
    return descriptionFix(
      ctx,
      'shorten',
      `Shorten the ${codePointLength(current)}-character meta description to at most ${T.descriptionMaxChars}`,
      [
        `The current description has ${codePointLength(current)} characters; results cut it after ` +
          `about ${T.descriptionMaxChars}, so the end of the message is lost.`,
      ],
    );
  },
  META_DESCRIPTION_MULTIPLE: (ctx) => {
    const descriptions = ctx.evidence.strings('descriptions', 3);
    const count = ctx.evidence.number('count') ?? descriptions.length;
    const keep = descriptions.find((text) => {
      const length = codePointLength(text.trim());
      return length >= T.descriptionMinChars && length <= T.descriptionMaxChars;
    });
    const text = keep?.trim() ?? proposeDescription(pageOf(ctx), ctx.url, 'new').text;
    return {
      summary: `Keep one meta description instead of ${count}`,
      steps: [
        descriptions.length > 0
          ? `The page has ${count} meta descriptions: ${inlineList(descriptions, count)}.`
          : `The page has ${count} meta descriptions.`,
        `Keep a single <meta name="description"> in ` +
          `<head>${keep ? ' (the one that already fits 70–160 characters)' : ', with the proposed text'}.`,
        'Remove the duplicates at their source: typically the theme and an SEO plugin both output one; ' +
          "disable the theme's.",
      ],
      code: metaDescriptionTag(text),
    };
  },
  META_DESCRIPTION_DUPLICATE: (ctx) => {
    const sameAs = ctx.evidence.strings('sameAs', 3);
    const others = ctx.evidence.number('duplicates') ?? sameAs.length;
    return descriptionFix(ctx, 'new', `Write a unique meta description for ${pageName(ctx)}`, [
      `${plural(others, 'other page')} ${others === 1 ? 'shares' : 'share'} this ` +
        `description${sameAs.length > 0 ? `, for example ${inlineList(sameAs, others)}` : ''}, so results ` +
        `look alike and none stands out.`,
    ]);
  },
  META_TAGS_IN_BODY: (ctx) => {
    const tags = ctx.evidence.strings('tags', 10);
    const page = ctx.page;
    const lines: string[] = [];
    for (const tag of tags.length > 0 ? tags : ['title', 'meta[name=description]', 'link[rel=canonical]']) {
      if (tag === 'title' && page?.title) lines.push(titleTag(page.title));
      else if (tag.includes('description') && page?.description) lines.push(metaDescriptionTag(page.description));
      else if (tag.includes('canonical'))
        lines.push(`<link rel="canonical" href="${escapeHtml(page?.canonical ?? ctx.url)}">`);
      else if (tag === 'title') lines.push(titleTag(proposeTitle(pageOf(ctx), ctx.url).text));
    }
    return {
      summary: `Move ${tags.length > 0 ? inlineList(tags, tags.length, 5) : 'the head tags'} from <body> into <head>`,
      steps: [
        `These tags appear after <body> started, where search engines ignore ` +
          `them: ${tags.length > 0 ? tags.join(', ') : 'title, meta or canonical link'}.`,
        'Move them into <head>, before any element that is not allowed there: an <img>, <div>, <iframe> or ' +
          'stray text in <head> silently ends the head, pushing every later tag into the body.',
        'If you cannot find such an element in the template, look for scripts or plugins that inject markup ' +
          'at the top of <head> (tracking pixels in <noscript><img>, consent banners).',
      ],
      code: `<head>\n  ${lines.join('\n  ')}\n</head>`,
    };
  },
  META_VIEWPORT_MISSING: () => ({
    summary: 'Add a responsive viewport meta tag',
    steps: [
      'Without a viewport tag, phones render the page at desktop width (980 px) and shrink it, so text is ' +
        'tiny and Google flags the page as not mobile-friendly.',
      'Add the tag inside <head> on every page (in the shared layout template).',
      'Check the page on a phone: if content overflows horizontally, fix fixed-width elements (widths in px ' +
        'wider than 360) with max-width: 100%.',
    ],
    code: '<meta name="viewport" content="width=device-width, initial-scale=1">',
  }),
  META_VIEWPORT_NO_ZOOM: (ctx) => {
    const viewport = ctx.evidence.string('viewport') ?? 'width=device-width, initial-scale=1';
    const reason = ctx.evidence.string('reason') ?? 'user-scalable=no';
    const kept = viewport
      .split(/[,;]/)
      .map((part) => part.trim())
      .filter((part) => part !== '' && !/^(user-scalable|maximum-scale)\s*=/i.test(part));
    if (!kept.some((part) => /^width\s*=/i.test(part))) kept.unshift('width=device-width');
    if (!kept.some((part) => /^initial-scale\s*=/i.test(part))) kept.push('initial-scale=1');
    const fixed = kept.join(', ');
    return {
      summary: `Remove ${reason} from the viewport so visitors can zoom`,
      steps: [
        `The viewport "${shorten(viewport, 120)}" blocks pinch-zoom (${reason}), an accessibility failure ` +
          `(WCAG 1.4.4) that Lighthouse reports.`,
        `Replace its content with "${fixed}".`,
        'If zoom was disabled to stop iOS zooming into form fields, give inputs a font-size of at least 16px instead.',
      ],
      code: `<meta name="viewport" content="${escapeHtml(fixed)}">`,
    };
  },
  META_LANG_MISSING: (ctx) => {
    const guess = guessLanguage(ctx.page, ctx.url);
    return {
      summary: `Declare the page language: <html lang="${guess.tag}">`,
      steps: [
        'The <html> element has no lang attribute, so screen readers, translation prompts and search engines ' +
          'must guess the language.',
        `Add lang="${guess.tag}" to the opening <html> tag (guessed from ${guess.basis}); use the tag of ` +
          `the language the content is actually written in, with a region only when it matters ` +
          `(en-GB, pt-BR).`,
        "Set it in the shared layout (or the CMS's site language setting) so every page carries it.",
      ],
      code: `<html lang="${escapeHtml(guess.tag)}">`,
    };
  },
  META_LANG_INVALID: (ctx) => {
    const current = ctx.evidence.string('lang') ?? ctx.page?.lang ?? '';
    const corrected = correctLanguageTag(current);
    const tag = corrected && corrected !== 'x-default' ? corrected : guessLanguage(ctx.page, ctx.url).tag;
    return {
      summary: `Replace lang="${shorten(current, 30)}" with the valid tag "${tag}"`,
      steps: [
        `"${shorten(current, 60)}" is not a BCP 47 language tag: tags are an ISO 639 language code, ` +
          `optionally a hyphen and an ISO 3166 region (en, en-US, de-AT), never an underscore or a ` +
          `language name.`,
        corrected
          ? `Change the <html> lang attribute to "${tag}", the valid form of the current value.`
          : `Change the <html> lang attribute to "${tag}" (guessed from the page; use the language the ` +
            `content is written in).`,
      ],
      code: `<html lang="${escapeHtml(tag)}">`,
    };
  },
  META_CHARSET_MISSING: () => ({
    summary: 'Declare UTF-8 as the character encoding',
    steps: [
      'Neither a <meta charset> nor the Content-Type header names the encoding, so browsers guess and ' +
        'accented characters may break.',
      'Add <meta charset="utf-8"> as the very first element inside <head> (it must be within the first 1024 bytes).',
      'Also send the charset in the Content-Type header: nginx "charset utf-8;" in the server block, Apache ' +
        '"AddDefaultCharset UTF-8".',
    ],
    code:
      '<meta charset="utf-8">\n\n# nginx (server block)\ncharset utf-8;\n\n# Apache (.htaccess or ' +
      'vhost)\nAddDefaultCharset UTF-8',
  }),
  META_DOCTYPE_MISSING: (ctx) => {
    const current = ctx.evidence.string('doctype');
    return {
      summary: 'Start the document with <!DOCTYPE html>',
      steps: [
        current
          ? `The document declares "<${shorten(current, 100)}>", a legacy doctype that triggers quirks or ` +
            `limited-quirks rendering.`
          : 'The document has no doctype, so browsers render it in quirks mode (old box model, inconsistent CSS).',
        'Make <!DOCTYPE html> the first line of the document, before <html>, with no comment or output from ' +
          'an include in front of it.',
        'Re-test the layout afterwards: pages built in quirks mode can shift slightly in standards mode ' +
          '(table heights, inline images).',
      ],
      code: '<!DOCTYPE html>',
    };
  },
  META_FAVICON_MISSING: (ctx) => {
    const status = ctx.evidence.number('status');
    return {
      summary: `Add a favicon at ${ctx.origin || ''}/favicon.ico and link it from the pages`,
      steps: [
        `The home page links no icon and /favicon.ico answered ${status === null ? 'nothing' : status}; ` +
          `search results and browser tabs show a generic icon.`,
        'Create a square icon (at least 48×48 px; Google shows multiples of 48) and save it as /favicon.ico ' +
          'at the site root, plus an SVG or 180×180 PNG for modern browsers and iOS.',
        'Link the icons from <head> in the shared layout.',
      ],
      code:
        '<link rel="icon" href="/favicon.ico" sizes="any">\n<link rel="icon" href="/icon.svg" ' +
        'type="image/svg+xml">\n<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
    };
  },
  META_OPEN_GRAPH_MISSING: (ctx) => {
    const page = pageOf(ctx);
    const title = page.title ? collapseWhitespace(page.title) : proposeTitle(page, ctx.url).text;
    const description = page.description ?? proposeDescription(page, ctx.url).text;
    const image = page.ogImage ?? page.images.find((img) => img.url !== null)?.url ?? null;
    const lines = [
      `<meta property="og:title" content="${escapeHtml(title)}">`,
      `<meta property="og:description" content="${escapeHtml(description)}">`,
      `<meta property="og:type" content="website">`,
      `<meta property="og:url" content="${escapeHtml(page.canonical ?? ctx.url)}">`,
    ];
    if (image) lines.push(`<meta property="og:image" content="${escapeHtml(image)}">`);
    lines.push(`<meta property="og:site_name" content="${escapeHtml(brandOf(page, ctx.url))}">`);
    return {
      summary: 'Add Open Graph tags so shares show a title, description and image',
      steps: [
        'The page sets none of og:title, og:description or og:image, so social networks and chat apps build ' +
          'the link preview from whatever they find.',
        `Add the tags to <head>; they reuse the page's title and ` +
          `description${image ? ` and the image ${shorten(image, 100)}` : ''}.`,
        image
          ? 'Prefer an image of at least 1200×630 px (1.91:1); use an absolute https URL.'
          : 'Add og:image with an absolute URL to an image of at least 1200×630 px: without it, previews are ' +
            'text-only.',
        'Check the preview with the Facebook Sharing Debugger or LinkedIn Post Inspector after deploying.',
      ],
      code: lines.join('\n'),
    };
  },
  META_TWITTER_CARD_MISSING: (ctx) => {
    const image = ctx.page?.ogImage ?? ctx.page?.images.find((img) => img.url !== null)?.url ?? null;
    const card = image ? 'summary_large_image' : 'summary';
    return {
      summary: `Add <meta name="twitter:card" content="${card}">`,
      steps: [
        'Without twitter:card, X (Twitter) shows links to this page as a bare URL or a minimal card.',
        image
          ? `Use "summary_large_image": the page has an image (${shorten(image, 100)}) to show; X falls ` +
            `back to og:title, og:description and og:image for the rest.`
          : 'Use "summary" (the page has no image to feature); add og:title and og:description too, which X reuses.',
      ],
      code: `<meta name="twitter:card" content="${card}">`,
    };
  },
  META_JSONLD_INVALID: (ctx) => {
    const errors = ctx.evidence.strings('errors', 3);
    const count = ctx.evidence.number('count') ?? errors.length;
    const name = ctx.page?.h1[0] ?? ctx.page?.title ?? phraseFromPath(ctx.path);
    const example = {
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      name: name || '…',
      url: ctx.page?.canonical ?? ctx.url,
    };
    return {
      summary: `Fix ${plural(count || 1, 'JSON-LD block')} that do${count === 1 ? 'es' : ''} not parse`,
      steps: [
        errors.length > 0
          ? `The parser reported: ${errors.map((error) => shorten(error, 120)).join(' | ')}.`
          : 'An application/ld+json script does not parse as JSON, so search engines ignore all of it.',
        'Common causes: trailing commas, single quotes, comments, unescaped double quotes or line breaks ' +
          'inside strings, and HTML entities (&quot;) instead of characters.',
        'Generate the JSON with a serializer (JSON.stringify, json_encode, wp_json_encode) instead of string ' +
          'templates, then validate it with the Schema Markup Validator (validator.schema.org).',
      ],
      code:
        `<script type="application/ld+json">\n` +
        `${JSON.stringify(example, null, 2).replace(/</g, '\\u003c')}\n</script>`,
    };
  },
  META_JSONLD_REQUIRED_MISSING: (ctx) => {
    const entities = ctx.evidence.records('entities', 5);
    const problems = entities.map((entity) => ({
      type: fieldOf(entity, 'type') ?? 'Thing',
      missing: Array.isArray(entity.missing)
        ? entity.missing.filter((m): m is string => typeof m === 'string').slice(0, 5)
        : [],
    }));
    const steps =
      problems.length > 0
        ? problems.map(
            (problem) =>
              `Add to the ${problem.type} entity: ${problem.missing.join(', ') || 'its required properties'}.`,
          )
        : ['A Product, Article, FAQPage, Review or BreadcrumbList entity lacks properties its rich result requires.'];
    const first = problems[0];
    const snippet: Record<string, unknown> = { '@context': 'https://schema.org', '@type': first?.type ?? 'Thing' };
    for (const missing of first?.missing ?? []) {
      const property = missing.startsWith('one of ') ? 'offers' : missing.replace(/[[.].*$/, '');
      snippet[property] = requiredPropertyExample(first.type, property, ctx);
    }
    steps.push(
      'Fill the values marked "…" from the page\'s real data (price and currency as shown on the page, the ' +
        'real author); marked-up values must match visible content.',
      "Validate with Google's Rich Results Test before deploying.",
    );
    return {
      summary: first
        ? `Complete the ${first.type} structured data: add ${first.missing.slice(0, 3).join(', ')}`
        : 'Complete the required structured data properties',
      steps,
      code:
        `<script type="application/ld+json">\n` +
        `${JSON.stringify(snippet, null, 2).replace(/</g, '\\u003c')}\n</script>`,
    };
  },
  META_HREFLANG_INVALID: (ctx) => {
    const values = ctx.evidence.strings('values', 5);
    const corrections = values.map((value) => {
      const corrected = correctLanguageTag(value);
      return { value, corrected: corrected && isValidHreflang(corrected) ? corrected : null };
    });
    const entries = (ctx.page?.hreflang ?? []).map((entry) => {
      const fix = corrections.find((c) => c.value === entry.lang);
      return fix?.corrected ? { lang: fix.corrected, href: entry.href } : entry;
    });
    return {
      summary: `Correct invalid hreflang values ${inlineList(values.length > 0 ? values : ['(unknown)'])}`,
      steps: [
        ...corrections.map((c) =>
          c.corrected
            ? `Replace hreflang="${c.value}" with "${c.corrected}".`
            : `hreflang="${c.value}" is not a language code; use the ISO 639-1 code of the target language ` +
              `(plus an ISO 3166-1 region if needed), or x-default.`,
        ),
        'hreflang takes a language (en), optionally a region (en-GB, not en-UK or en_GB), or x-default; ' +
          'invalid entries are ignored by Google, so those alternates are lost.',
      ],
      code:
        entries.length > 0
          ? hreflangTags(entries)
          : hreflangTags(corrections.map((c) => ({ lang: c.corrected ?? c.value, href: ctx.url }))),
    };
  },
  META_HREFLANG_RELATIVE: (ctx) => {
    const hrefs = ctx.evidence.strings('hrefs', 5);
    const langOf = (href: string) =>
      ctx.page?.hreflang?.find((entry) => entry.href === href || pathOf(entry.href) === href)?.lang;
    const fixed = hrefs.map((href) => ({
      lang: langOf(href) ?? guessLanguage(ctx.page, ctx.url).tag,
      href: absoluteUrl(href, ctx.url) ?? href,
    }));
    return {
      summary: `Make ${plural(hrefs.length || 1, 'hreflang URL')} absolute`,
      steps: [
        `hreflang alternates must be absolute URLs with scheme and host; these are ` +
          `relative: ${inlineList(hrefs.length > 0 ? hrefs : ['(unknown)'])}.`,
        ...fixed
          .slice(0, 5)
          .map((entry, index) => `Change href="${shorten(hrefs[index], 100)}" to "${shorten(entry.href, 160)}".`),
      ],
      code: hreflangTags(fixed.length > 0 ? fixed : [{ lang: guessLanguage(ctx.page, ctx.url).tag, href: ctx.url }]),
    };
  },
  META_HREFLANG_NO_SELF: (ctx) => {
    const url = ctx.evidence.string('url') ?? ctx.page?.canonical ?? ctx.url;
    const lang =
      ctx.page?.lang && isValidHreflang(ctx.page.lang) ? ctx.page.lang : guessLanguage(ctx.page, ctx.url).tag;
    return {
      summary: `Add a self-referencing hreflang entry for ${shorten(url, 100)}`,
      steps: [
        'Each page in an hreflang set must list itself too; without it, Google may ignore the whole set for this page.',
        `Add the alternate for this page (language "${lang}") next to the other hreflang links, using the ` +
          `page's canonical URL.`,
      ],
      code: hreflangTags([...(ctx.page?.hreflang ?? []).slice(0, 10), { lang, href: url }]),
    };
  },
  META_HREFLANG_NO_RETURN: (ctx) => {
    const targets = ctx.evidence.strings('targetsWithoutReturn', 5);
    const lang =
      ctx.page?.lang && isValidHreflang(ctx.page.lang) ? ctx.page.lang : guessLanguage(ctx.page, ctx.url).tag;
    return {
      summary: `Add return hreflang links on ${plural(targets.length || 1, 'alternate page')}`,
      steps: [
        `This page names alternates that do not link ` +
          `back: ${inlineList(targets.length > 0 ? targets : ['(unknown)'], targets.length)}. Google ` +
          `ignores hreflang pairs without a return link.`,
        ...targets.map((target) => `On ${shorten(target, 140)}, add an hreflang link back to this page (${lang}).`),
        'Easiest to keep consistent: emit the same complete hreflang set (every language version plus ' +
          'x-default) on every page of the set.',
      ],
      code: hreflangTags([{ lang, href: ctx.url }]),
    };
  },
  META_HREFLANG_NO_X_DEFAULT: (ctx) => {
    const target = ctx.origin ? `${ctx.origin}/` : ctx.url;
    return {
      summary: 'Add an x-default hreflang entry',
      steps: [
        'The hreflang set has no x-default, so visitors whose language matches none of the versions get ' +
          'whichever Google picks.',
        `Point x-default at the language selector or the default version (here the site root ${target} is ` +
          `proposed), and add the same line on every page of the set.`,
      ],
      code: hreflangTags([...(ctx.page?.hreflang ?? []).slice(0, 10), { lang: 'x-default', href: target }]),
    };
  },
};
