import type { CheckCode } from '../checks/index.js';
import { fieldOf, numberOf } from './fix-evidence.js';
import { absoluteUrl, inlineList, plural, type FixRule, type FixRuleContext } from './fix-rule-context.js';
import { escapeHtml, phraseFromPath, shorten } from './markup-text.js';
import { brandOf } from './title-proposal.js';

/**
 * Fixes for the structured data, hreflang, viewport, social, AMP and pagination checks of
 * structured-international-checks.ts: each built from the occurrence's evidence and the page digest.
 */
export type StructuredFixCode =
  | 'META_JSONLD_NO_CONTEXT'
  | 'META_JSONLD_TYPE_MISSING'
  | 'META_JSONLD_ORGANIZATION_INCOMPLETE'
  | 'META_JSONLD_ARTICLE_INCOMPLETE'
  | 'META_JSONLD_PRODUCT_NO_OFFER'
  | 'META_JSONLD_BREADCRUMB_INVALID'
  | 'META_JSONLD_FAQ_INVALID'
  | 'META_JSONLD_DATE_INVALID'
  | 'META_HREFLANG_DUPLICATE'
  | 'META_HREFLANG_TO_BROKEN'
  | 'META_HREFLANG_TO_NON_INDEXABLE'
  | 'META_HREFLANG_LANG_MISMATCH'
  | 'META_VIEWPORT_NOT_RESPONSIVE'
  | 'META_VIEWPORT_MULTIPLE'
  | 'META_OG_INCOMPLETE'
  | 'META_OG_IMAGE_RELATIVE'
  | 'META_OG_URL_MISMATCH'
  | 'META_TWITTER_CARD_INVALID'
  | 'LINKS_PAGINATION_BROKEN'
  | 'LINKS_PAGINATION_NOINDEX'
  | 'TECH_AMP_LINK_BROKEN'
  | 'TECH_AMP_NO_CANONICAL';

const RESPONSIVE_VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

export const STRUCTURED_FIX_RULES: Readonly<Record<StructuredFixCode & CheckCode, FixRule>> = {
  META_JSONLD_NO_CONTEXT: (ctx) => {
    const contexts = ctx.evidence.strings('contexts', 3);
    const count = ctx.evidence.number('count') ?? 1;
    return {
      summary: `Add "@context": "https://schema.org" to ${plural(count, 'JSON-LD object')}`,
      steps: [
        contexts.length > 0
          ? `The @context written is ${inlineList(contexts)}, which does not name schema.org.`
          : 'The object has no @context, so its types and properties are not read as schema.org terms.',
        'Make "@context": "https://schema.org" the first property of every top-level object (or wrap several ' +
          'entities in one object with an "@graph" list).',
        "Validate with Google's Rich Results Test or validator.schema.org after deploying.",
      ],
      code: jsonLdScript({ '@context': 'https://schema.org', '@type': 'WebPage', name: pageTitle(ctx), url: ctx.url }),
    };
  },
  META_JSONLD_TYPE_MISSING: (ctx) => {
    const keys = ctx.evidence.records('entities', 3).flatMap((entity) => stringList(entity.keys));
    return {
      summary: 'Give every JSON-LD entity a schema.org @type',
      steps: [
        keys.length > 0
          ? `An entity with the properties ${inlineList(keys, keys.length, 5)} has no @type.`
          : 'An entity of the page has no @type.',
        'Add the type it describes, such as "@type": "WebPage", "Organization", "Product" or "Article" ' +
          '(schema.org/docs/full.html lists them); a node that only refers to another one may keep just "@id".',
      ],
      code: jsonLdScript({ '@context': 'https://schema.org', '@type': 'WebPage', name: pageTitle(ctx), url: ctx.url }),
    };
  },
  META_JSONLD_ORGANIZATION_INCOMPLETE: (ctx) => {
    const entity = ctx.evidence.records('entities', 1)[0] ?? {};
    const type = fieldOf(entity, 'type') ?? 'Organization';
    const problems = stringList(entity.problems);
    const local = problems.some((problem) => problem.startsWith('address'));
    const snippet: Record<string, unknown> = {
      '@context': 'https://schema.org',
      '@type': type,
      name: ctx.page?.siteName ?? brandOf(ctx.page, ctx.url),
      url: ctx.origin ? `${ctx.origin}/` : ctx.url,
      logo: absoluteLogo(problems, ctx) ?? `${ctx.origin}/logo.png`,
    };
    if (local)
      snippet.address = {
        '@type': 'PostalAddress',
        streetAddress: '…',
        addressLocality: '…',
        postalCode: '…',
        addressCountry: '…',
      };
    return {
      summary: `Complete the ${type} structured data: ${problems.slice(0, 3).join('; ') || 'name and url'}`,
      steps: [
        ...problems.map((problem) => `Fix: ${problem}.`),
        'Use the business name as customers know it and the home page URL; write the logo as an absolute URL of an ' +
          'image at least 112 x 112 px.',
        "Fill the values marked '…' from the real business data, then check with the Rich Results Test.",
      ],
      code: jsonLdScript(snippet),
    };
  },
  META_JSONLD_ARTICLE_INCOMPLETE: (ctx) => {
    const entity = ctx.evidence.records('entities', 1)[0] ?? {};
    const type = fieldOf(entity, 'type') ?? 'Article';
    const missing = stringList(entity.missing);
    const values: Record<string, unknown> = {
      headline: shorten(ctx.page?.h1[0] ?? ctx.page?.title ?? phraseFromPath(ctx.path), 110),
      image: [ctx.page?.ogImage ?? ctx.page?.images.find((image) => image.url !== null)?.url ?? '…'],
      author: { '@type': 'Person', name: '…', url: '…' },
      datePublished: '…',
    };
    const snippet: Record<string, unknown> = { '@context': 'https://schema.org', '@type': type };
    for (const property of missing.length > 0 ? missing : Object.keys(values)) snippet[property] = values[property];
    return {
      summary: `Add ${inlineList(missing.length > 0 ? missing : ['the recommended properties'])} to the ${type}`,
      steps: [
        `Google recommends headline, image, author and datePublished on every ${type}; this one lacks ` +
          `${missing.join(', ') || 'some of them'}.`,
        'Merge the properties below into the existing markup: the headline as the page shows it, a large image ' +
          '(at least 1200 px wide), the real author with a name and profile URL, and the publication date in ' +
          'ISO 8601 with a time zone (2024-03-03T09:30:00+01:00).',
      ],
      code: jsonLdScript(snippet),
    };
  },
  META_JSONLD_PRODUCT_NO_OFFER: (ctx) => {
    const name = ctx.evidence.strings('products', 1)[0] ?? ctx.page?.h1[0] ?? phraseFromPath(ctx.path);
    return {
      summary: `Add an offer (or the review or rating shown) to the Product "${shorten(name, 80)}"`,
      steps: [
        'A Product needs offers, review or aggregateRating for Google to show product results.',
        'Add the Offer with the price, currency and availability the page displays; if the product is not ' +
          'sold here, mark up the review or aggregateRating the page shows instead.',
        'Keep the values in sync with the page (price changes, stock), ideally generated from the same data.',
      ],
      code: jsonLdScript({
        '@context': 'https://schema.org',
        '@type': 'Product',
        name,
        offers: {
          '@type': 'Offer',
          price: '…',
          priceCurrency: '…',
          availability: 'https://schema.org/InStock',
          url: ctx.url,
        },
      }),
    };
  },
  META_JSONLD_BREADCRUMB_INVALID: (ctx) => {
    const problems = ctx.evidence.records('entities', 1).flatMap((entity) => stringList(entity.problems));
    return {
      summary: `Correct the BreadcrumbList: ${problems.slice(0, 2).join('; ') || 'positions and item URLs'}`,
      steps: [
        ...problems.map((problem) => `Fix: ${problem}.`),
        "Number the crumbs 1, 2, 3 in order, name each, and set every crumb's item to the absolute URL of its " +
          'page; the last crumb (this page) may omit item. The trail below is built from the URL path.',
      ],
      code: jsonLdScript(breadcrumbFromPath(ctx)),
    };
  },
  META_JSONLD_FAQ_INVALID: (ctx) => {
    const problems = ctx.evidence.records('entities', 1).flatMap((entity) => stringList(entity.problems));
    const questions = (ctx.page?.headings ?? []).filter((heading) => heading.text.trim().endsWith('?')).slice(0, 3);
    return {
      summary: `Complete the FAQ questions: ${problems.slice(0, 2).join('; ') || 'answers are missing'}`,
      steps: [
        ...problems.map((problem) => `Fix: ${problem}.`),
        'Each Question needs its name (the question as shown) and an acceptedAnswer of type Answer whose text ' +
          'is the full answer shown on the page.',
      ],
      code: jsonLdScript({
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: (questions.length > 0 ? questions.map((q) => q.text) : ['…']).map((name) => ({
          '@type': 'Question',
          name,
          acceptedAnswer: { '@type': 'Answer', text: '…' },
        })),
      }),
    };
  },
  META_JSONLD_DATE_INVALID: (ctx) => {
    const dates = ctx.evidence.records('dates', 5);
    const rewritten = dates.map((date) => {
      const value = fieldOf(date, 'value') ?? '';
      return { property: fieldOf(date, 'property') ?? 'datePublished', value, iso: isoFrom(value) };
    });
    return {
      summary: `Write ${plural(rewritten.length || 1, 'structured data date')} in ISO 8601`,
      steps: [
        ...rewritten.map((date) =>
          date.iso
            ? `Change ${date.property} "${shorten(date.value, 60)}" to "${date.iso}" (add the time and zone if ` +
              `known, such as ${date.iso}T09:30:00+01:00).`
            : `Change ${date.property} "${shorten(date.value, 60)}" to an ISO 8601 date such as 2024-03-03 or ` +
              `2024-03-03T09:30:00+01:00.`,
        ),
        'Produce the value with a date formatter (toISOString() in JavaScript, date("c") in PHP) rather than a ' +
          'human-readable format.',
      ],
      code: rewritten.map((date) => `"${date.property}": "${date.iso ?? 'YYYY-MM-DDThh:mm:ss+hh:mm'}"`).join(',\n'),
    };
  },
  META_HREFLANG_DUPLICATE: (ctx) => {
    const duplicates = ctx.evidence.records('duplicates', 5);
    return {
      summary: `Keep one URL per hreflang value (${duplicates.map((d) => fieldOf(d, 'lang')).join(', ')})`,
      steps: [
        ...duplicates.map(
          (duplicate) =>
            `hreflang="${fieldOf(duplicate, 'lang')}" points to ${inlineList(stringList(duplicate.urls))}: keep ` +
            `the one that is the version for that audience, and give the other its own code (such as en-GB and ` +
            `en-US) or remove it.`,
        ),
        'Emit the same corrected set on every page of the set, and in the sitemap or Link header if used there.',
      ],
    };
  },
  META_HREFLANG_TO_BROKEN: (ctx) => targetFix(ctx, 'hreflang alternate', 'Point the entry at the working URL'),
  META_HREFLANG_TO_NON_INDEXABLE: (ctx) => {
    const targets = ctx.evidence.records('targets', 5);
    return {
      summary: `Point ${plural(targets.length || 1, 'hreflang entry', 'hreflang entries')} at indexable URLs`,
      steps: [
        ...targets.map((target) => {
          const url = fieldOf(target, 'url') ?? '';
          const canonical = fieldOf(target, 'canonical');
          return fieldOf(target, 'reason') === 'canonicalized' && canonical
            ? `hreflang="${fieldOf(target, 'label')}" names ${shorten(url, 120)}, whose canonical is ` +
                `${shorten(canonical, 120)}: use ${shorten(canonical, 120)} in the hreflang set instead.`
            : `hreflang="${fieldOf(target, 'label')}" names ${shorten(url, 120)}, which is noindex: remove the ` +
                `noindex from it, or drop the entry if that version should not be found.`;
        }),
        'Every URL in an hreflang set must be indexable and its own canonical: list each version under the URL ' +
          'its canonical link names, and keep noindex pages out of the set.',
      ],
    };
  },
  META_HREFLANG_LANG_MISMATCH: (ctx) => {
    const lang = ctx.evidence.string('lang') ?? ctx.page?.lang ?? '';
    const own = ctx.evidence.strings('hreflang', 3);
    const self = ctx.page?.canonical ?? ctx.url;
    return {
      summary: `Make <html lang="${shorten(lang, 20)}"> and the page's own hreflang (${own.join(', ')}) agree`,
      steps: [
        `The page declares lang="${lang}" but lists itself in its hreflang set as ${inlineList(own)}.`,
        'If the text is written in the lang language, change the self-referencing hreflang entry to it (on ' +
          'this page and on every alternate that lists this page); otherwise correct the lang attribute.',
      ],
      code: `<link rel="alternate" hreflang="${escapeHtml(lang)}" href="${escapeHtml(self)}">`,
    };
  },
  META_VIEWPORT_NOT_RESPONSIVE: (ctx) => {
    const viewport = ctx.evidence.string('viewport') ?? '';
    return {
      summary: 'Use a responsive viewport: width=device-width, initial-scale=1',
      steps: [
        `The viewport "${shorten(viewport, 100)}" (${ctx.evidence.string('reason') ?? 'not responsive'}) makes ` +
          'phones lay the page out at a fixed desktop width.',
        'Replace it with the tag below, then make fixed-width elements fluid (max-width: 100%, media queries) so ' +
          'nothing overflows at 360 px.',
      ],
      code: RESPONSIVE_VIEWPORT,
    };
  },
  META_VIEWPORT_MULTIPLE: (ctx) => ({
    summary: `Keep one viewport tag instead of ${ctx.evidence.number('count') ?? 'several'}`,
    steps: [
      'Browsers apply only one viewport tag (usually the last), which may not be the intended one.',
      'Remove the extra tags, often printed by both the theme and a plugin, and keep the one below in <head>.',
    ],
    code: RESPONSIVE_VIEWPORT,
  }),
  META_OG_INCOMPLETE: (ctx) => {
    const missing = ctx.evidence.strings('missing', 4);
    const values: Record<string, string> = {
      'og:title': ctx.page?.title ?? pageTitle(ctx),
      'og:type': /\/(blog|news|articles?)\//.test(ctx.path) ? 'article' : 'website',
      'og:image': ctx.page?.ogImage ?? ctx.page?.images.find((image) => image.url !== null)?.url ?? `${ctx.origin}/…`,
      'og:url': ctx.page?.canonical ?? ctx.url,
    };
    return {
      summary: `Add ${inlineList(missing.length > 0 ? missing : ['the required Open Graph tags'])}`,
      steps: [
        'Open Graph requires og:title, og:type, og:image and og:url; without them link previews are guessed.',
        'Add the tags below to <head> (og:url is the canonical URL; og:image an absolute URL of an image about ' +
          '1200 x 630 px).',
      ],
      code: (missing.length > 0 ? missing : Object.keys(values))
        .map((key) => `<meta property="${escapeHtml(key)}" content="${escapeHtml(values[key] ?? '…')}">`)
        .join('\n'),
    };
  },
  META_OG_IMAGE_RELATIVE: (ctx) => {
    const images = ctx.evidence.records('images', 3);
    const fixed = images.map((image) => ({
      property: fieldOf(image, 'property') ?? 'og:image',
      value: fieldOf(image, 'value') ?? '',
      absolute: absoluteUrl(fieldOf(image, 'value') ?? '', ctx.url),
    }));
    return {
      summary: 'Write og:image as an absolute URL',
      steps: [
        ...fixed.map(
          (image) => `Change ${image.property} "${shorten(image.value, 100)}" to "${image.absolute ?? '…'}".`,
        ),
        'Social networks fetch og:image as written: give it the scheme and host (https://…), from the template or ' +
          'SEO plugin that prints the tag.',
      ],
      code:
        fixed
          .filter((image) => image.absolute !== null)
          .map((image) => `<meta property="${escapeHtml(image.property)}" content="${escapeHtml(image.absolute!)}">`)
          .join('\n') || undefined,
    };
  },
  META_OG_URL_MISMATCH: (ctx) => {
    const canonical = ctx.evidence.string('canonical') ?? ctx.page?.canonical ?? ctx.url;
    return {
      summary: 'Set og:url to the canonical URL',
      steps: [
        `og:url is "${shorten(ctx.evidence.string('ogUrl') ?? '', 120)}" but the canonical URL is ` +
          `"${shorten(canonical, 120)}".`,
        'Use the canonical URL in og:url, generated from the same value as the canonical link.',
      ],
      code: `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    };
  },
  META_TWITTER_CARD_INVALID: (ctx) => {
    const card = ctx.evidence.string('card') ?? '';
    const large = /large|photo|gallery|image/i.test(card) || !!ctx.page?.ogImage;
    const fixed = large ? 'summary_large_image' : 'summary';
    return {
      summary: `Replace twitter:card "${shorten(card, 40)}" with "${fixed}"`,
      steps: [
        `"${shorten(card, 60)}" is not a card type X knows (summary, summary_large_image, app, player).`,
        `Use "${fixed}"${large ? ' (the page has a large image to feature)' : ''}.`,
      ],
      code: `<meta name="twitter:card" content="${fixed}">`,
    };
  },
  LINKS_PAGINATION_BROKEN: (ctx) => targetFix(ctx, 'pagination link', 'Point rel=next/prev at the working URL'),
  LINKS_PAGINATION_NOINDEX: (ctx) => {
    const sources = ctx.evidence.strings('sources', 3);
    return {
      summary: 'Remove noindex from this page of the paginated series',
      steps: [
        `The page is noindex (${sources.join(', ') || 'meta robots'}) while it belongs to a rel=next/prev series.`,
        sources.includes('header')
          ? 'Remove the X-Robots-Tag: noindex header for this URL in the server or CDN configuration.'
          : 'Remove the noindex from the meta robots tag of the series template.',
        'Give the page a self-referencing canonical rather than pointing it at page 1.',
      ],
      code: `<link rel="canonical" href="${escapeHtml(ctx.url)}">`,
    };
  },
  TECH_AMP_LINK_BROKEN: (ctx) => targetFix(ctx, 'AMP link', 'Point rel=amphtml at the working AMP URL'),
  TECH_AMP_NO_CANONICAL: (ctx) => {
    const regular = ctx.url.replace(/\/amp\/?$|[?&]amp(=1)?$|\.amp(?=\.html?$)/i, '');
    return {
      summary: 'Add a canonical link to the AMP page',
      steps: [
        'AMP requires <link rel="canonical"> on every AMP page: to the regular page, or to itself when the AMP ' +
          'page is the only version.',
        regular !== ctx.url
          ? `The regular version is probably ${regular}; link it as canonical, and link this AMP page from it ` +
            `with rel=amphtml.`
          : 'Link the regular version of the page, or this URL if there is none.',
      ],
      code: `<link rel="canonical" href="${escapeHtml(regular)}">`,
    };
  },
};

/** A fix for bad hreflang, amphtml or rel=next/prev targets: the targets and what each answered. */
function targetFix(ctx: FixRuleContext, what: string, action: string) {
  const targets = ctx.evidence.records('targets', 5);
  return {
    summary: `Fix ${plural(targets.length || 1, what)} that do${targets.length === 1 ? 'es' : ''} not answer 200`,
    steps: [
      ...targets.map(
        (target) =>
          `${fieldOf(target, 'label') ?? what} → ${shorten(fieldOf(target, 'url') ?? '', 140)}: ` +
          `${fieldOf(target, 'reason') ?? `status ${numberOf(target, 'status') ?? 'unknown'}`}.`,
      ),
      `${action} (the final URL for a redirect), or remove the link when the target no longer exists.`,
    ],
  };
}

function jsonLdScript(value: unknown): string {
  return `<script type="application/ld+json">\n${JSON.stringify(value, null, 2).replace(/</g, '\\u003c')}\n</script>`;
}

function pageTitle(ctx: FixRuleContext): string {
  return ctx.page?.title ?? ctx.page?.h1[0] ?? (phraseFromPath(ctx.path) || '…');
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The absolute form of the relative logo the evidence names ("logo is not an absolute URL: /img/logo.png"). */
function absoluteLogo(problems: string[], ctx: FixRuleContext): string | null {
  const written = problems.find((problem) => problem.startsWith('logo'))?.split(': ')[1];
  return written ? absoluteUrl(written.replace(/^"|"$/g, ''), ctx.url) : null;
}

/** A BreadcrumbList for the page from its URL path: home, each directory, the page. */
function breadcrumbFromPath(ctx: FixRuleContext): Record<string, unknown> {
  const segments = ctx.path.split('?')[0].split('/').filter(Boolean);
  const crumbs = [{ name: brandOf(ctx.page, ctx.url), url: `${ctx.origin}/` }];
  segments.forEach((segment, index) => {
    crumbs.push({
      name: phraseFromPath(`/${segment}`) || segment,
      url: `${ctx.origin}/${segments.slice(0, index + 1).join('/')}${index < segments.length - 1 ? '/' : ''}`,
    });
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: crumb.url,
    })),
  };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** An ISO date from common written forms ("March 3, 2024", "3 March 2024", "2024/03/03"); null when unsure. */
function isoFrom(value: string): string | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  const ymd = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(value.trim());
  if (ymd) return `${ymd[1]}-${pad(Number(ymd[2]))}-${pad(Number(ymd[3]))}`;
  const words = /^(?:([a-z]+)\.? (\d{1,2}),? (\d{4})|(\d{1,2}) ([a-z]+)\.? (\d{4}))$/i.exec(value.trim());
  if (!words) return null;
  const monthName = (words[1] ?? words[5]).slice(0, 3).toLowerCase();
  const month = MONTHS.indexOf(monthName) + 1;
  const day = Number(words[2] ?? words[4]);
  if (month === 0 || day < 1 || day > 31) return null;
  return `${words[3] ?? words[6]}-${pad(month)}-${pad(day)}`;
}
