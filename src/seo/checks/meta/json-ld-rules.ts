import { fieldOf } from '../../fixes/fix-evidence.js';
import { inlineList, plural } from '../../fixes/fix-rule-context.js';
import { phraseFromPath, shorten } from '../../fixes/markup-text.js';
import {
  absoluteLogo,
  breadcrumbFromPath,
  isoFrom,
  jsonLdScript,
  pageTitle,
  stringList,
} from '../../fixes/structured-international-fix-rules.js';
import { brandOf } from '../../fixes/title-proposal.js';
import { defineCheck } from '../define-check.js';
import {
  entityProblemTable,
  listCell,
  listTable,
  numberAt,
  recordsAt,
  stringAt,
  stringsAt,
  stringsOrNull,
  textCell,
  writtenCell,
} from '../evidence-presenters.js';
import {
  articleProblems,
  breadcrumbProblems,
  contextProblems,
  dateProblems,
  faqProblems,
  organizationProblems,
  productsWithoutOffer,
  untypedEntities,
} from '../structured-data-rules.js';
import { SAMPLE, jsonLdRule } from '../structured-international-checks.js';

export const JSON_LD_RULE_CHECKS = [
  defineCheck({
    code: 'META_JSONLD_NO_CONTEXT',
    title: 'JSON-LD without schema.org context',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'A top-level JSON-LD object has no @context, or a @context that does not name schema.org.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'Without an @context naming schema.org, a JSON-LD block is just JSON: processors cannot tell that ' +
      '"Product" or "name" are schema.org terms, so search engines ignore the markup and no rich result can ' +
      'come of it.',
    howToFix:
      'Start every top-level JSON-LD object with "@context": "https://schema.org" (an array of objects ' +
      'needs it on each, or one object with an @graph list). Fix it in the template or plugin that prints ' +
      'the script.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'contexts'],
      present: (e, view) =>
        listTable(
          view,
          'JSON-LD objects without a schema.org @context',
          '@context as written',
          stringsOrNull(e, 'contexts').map((context) => context ?? 'None'),
          numberAt(e, 'count'),
        ),
    },
    evaluate: ({ html }) =>
      jsonLdRule(html, contextProblems, (problems) => ({
        count: problems.length,
        contexts: problems.slice(0, SAMPLE).map((problem) => problem.context),
      })),
    fix: (ctx) => {
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
        code: jsonLdScript({
          '@context': 'https://schema.org',
          '@type': 'WebPage',
          name: pageTitle(ctx),
          url: ctx.url,
        }),
      };
    },
  }),
  defineCheck({
    code: 'META_JSONLD_TYPE_MISSING',
    title: 'JSON-LD entity without @type',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'A top-level JSON-LD entity or @graph member (other than a bare @id reference) has no @type.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'An entity without @type says nothing about what it describes, so search engines cannot match it to ' +
      'any rich result feature and skip it; validators report it as an error.',
    howToFix:
      'Give each top-level entity and @graph member the schema.org type it describes, for example "@type": ' +
      '"Organization", "Product" or "WebPage". A member that only points at an entity described elsewhere ' +
      'may keep just its "@id".',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'entities'],
      present: (e, view) =>
        listTable(
          view,
          'Entities without @type',
          'Properties it has',
          recordsAt(e, 'entities').map((entity) => stringsAt(entity, 'keys').join(', ') || 'None'),
          numberAt(e, 'count'),
        ),
    },
    evaluate: ({ html }) =>
      jsonLdRule(html, untypedEntities, (problems) => ({
        count: problems.length,
        entities: problems.slice(0, SAMPLE),
      })),
    fix: (ctx) => {
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
        code: jsonLdScript({
          '@context': 'https://schema.org',
          '@type': 'WebPage',
          name: pageTitle(ctx),
          url: ctx.url,
        }),
      };
    },
  }),
  defineCheck({
    code: 'META_JSONLD_ORGANIZATION_INCOMPLETE',
    title: 'Incomplete Organization structured data',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description:
      'An Organization lacks name or url, a LocalBusiness lacks name or address, or a logo is not an absolute URL.',
    scoreReason: {
      ahrefs: 'warning',
      ours: 'Recommended, not required properties: hygiene.',
    },
    why:
      'Organization markup tells Google the name, site and logo of the business behind the page (knowledge ' +
      'panels, logo results); without a name and url, or with a relative logo URL, it cannot use them. Local ' +
      'results need a name and address.',
    howToFix:
      "Give the Organization its name and the site's home page url, and a LocalBusiness its name and postal " +
      'address; write the logo as an absolute URL (https://example.com/logo.png) of an image at least 112 x ' +
      '112 px.',
    evidence: { kind: 'VALUES', keys: ['entities'], present: entityProblemTable },
    evaluate: ({ html }) =>
      jsonLdRule(html, organizationProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'META_JSONLD_ARTICLE_INCOMPLETE',
    title: 'Incomplete Article structured data',
    severity: 'NOTICE',
    category: 'META',
    scope: 'page',
    description: 'An Article, NewsArticle or BlogPosting lacks headline, image, author or datePublished.',
    scoreReason: {
      ahrefs: 'warning',
      ours: 'Recommended, not required properties: hygiene.',
    },
    why:
      "Google uses an article's headline, image, author and publication date for article rich results and " +
      'Top stories; it requires none of them, but markup without them gives it little to show and loses ' +
      'those features.',
    howToFix:
      'Add the missing properties to the Article, NewsArticle or BlogPosting: headline (the article title), ' +
      'image (an absolute URL of a large image), author (a Person or Organization with a name) and ' +
      'datePublished in ISO 8601.',
    evidence: {
      kind: 'VALUES',
      keys: ['entities'],
      present: (e, view) =>
        view.table(
          'Articles missing recommended properties',
          ['Type', 'Missing'],
          recordsAt(e, 'entities').map((entity) => [
            textCell(stringAt(entity, 'type') ?? 'Article'),
            listCell(stringsAt(entity, 'missing')) ?? { text: 'Unknown' },
          ]),
        ),
    },
    evaluate: ({ html }) => jsonLdRule(html, articleProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'META_JSONLD_PRODUCT_NO_OFFER',
    title: 'Product without offer, review or rating',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'A Product has none of offers, review or aggregateRating, which its rich result requires.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'Google shows product rich results (price, availability, rating stars) only for a Product with an ' +
      'offer, a review or an aggregate rating; a Product with none of them is reported as invalid and shows ' +
      'nothing.',
    howToFix:
      'Add an offers object with price, priceCurrency and availability as shown on the page, or the review ' +
      'or aggregateRating the page displays; never mark up prices or ratings that visitors cannot see.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'products'],
      present: (e, view) =>
        listTable(
          view,
          'Products without offers, review or aggregateRating',
          'Product name',
          stringsOrNull(e, 'products').map((name) => name ?? 'No name'),
          numberAt(e, 'count'),
        ),
    },
    evaluate: ({ html }) =>
      jsonLdRule(html, productsWithoutOffer, (problems) => ({
        count: problems.length,
        products: problems.slice(0, SAMPLE).map((problem) => problem.name),
      })),
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'META_JSONLD_BREADCRUMB_INVALID',
    title: 'Invalid BreadcrumbList',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description:
      'A BreadcrumbList item lacks a name, positions do not run 1..n, or an item URL (required on every crumb but ' +
      'the last) is missing or not absolute.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'Google shows the breadcrumb trail in search results instead of the URL only when every crumb has a ' +
      'name and a position in order, and every crumb but the last links to its page with a full URL.',
    howToFix:
      'Number the ListItem positions 1, 2, 3 in order, give each a name, and set item to the absolute URL ' +
      "of that level's page (https://example.com/garden/); only the last crumb, the current page, may leave " +
      'item out.',
    evidence: { kind: 'VALUES', keys: ['entities'], present: entityProblemTable },
    evaluate: ({ html }) =>
      jsonLdRule(html, breadcrumbProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'META_JSONLD_FAQ_INVALID',
    title: 'Invalid FAQPage',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'A Question of an FAQPage lacks its name or an acceptedAnswer with text.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'An FAQPage question without its text or an accepted answer with text is invalid for Google, which ' +
      "then ignores the markup; FAQ markup also helps other search and AI tools read the page's questions " +
      'and answers.',
    howToFix:
      'Give each Question a name (the question as shown) and an acceptedAnswer of type Answer whose text is ' +
      'the full answer from the page; remove questions the page does not actually answer.',
    evidence: { kind: 'VALUES', keys: ['entities'], present: entityProblemTable },
    evaluate: ({ html }) => jsonLdRule(html, faqProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'META_JSONLD_DATE_INVALID',
    title: 'Structured data date not ISO 8601',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'A datePublished or dateModified value is not an ISO 8601 date or date-time.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'Search engines read datePublished and dateModified to date an article or page; a value that is not ' +
      'ISO 8601 (such as "March 3, 2024" or "03/04/2024") may be ignored or misread, so a wrong date may be ' +
      'shown.',
    howToFix:
      'Write dates in ISO 8601: 2024-03-03, or with a time and time zone, 2024-03-03T09:30:00+01:00. Most ' +
      'languages produce this format directly, for example toISOString() in JavaScript or date("c") in PHP.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'dates'],
      present: (e, view) =>
        view.table(
          'Dates that are not ISO 8601',
          ['Type', 'Property', 'Value'],
          recordsAt(e, 'dates').map((date) => [
            textCell(stringAt(date, 'type') ?? 'Thing'),
            textCell(stringAt(date, 'property') ?? ''),
            writtenCell(stringAt(date, 'value') ?? ''),
          ]),
          numberAt(e, 'count') ?? undefined,
        ),
    },
    evaluate: ({ html }) =>
      jsonLdRule(html, dateProblems, (problems) => ({ count: problems.length, dates: problems.slice(0, SAMPLE) })),
    fix: (ctx) => {
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
  }),
] as const;
