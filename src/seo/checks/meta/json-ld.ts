import { fieldOf } from '../../fixes/fix-evidence.js';
import { plural } from '../../fixes/fix-rule-context.js';
import { phraseFromPath, shorten } from '../../fixes/markup-text.js';
import { requiredPropertyExample } from '../../fixes/meta-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listCell, listTable, numberAt, recordsAt, stringAt, stringsAt, textCell } from '../evidence-presenters.js';
import { SAMPLE } from '../page-check-helpers.js';
import { checkStructuredData } from '../structured-data-rules.js';

export const JSON_LD_CHECKS = [
  defineCheck({
    code: 'META_JSONLD_INVALID',
    title: 'Invalid JSON-LD',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description: 'An application/ld+json block does not parse as JSON.',
    scoreReason: {
      lighthouse: 'structured-data (manual)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'Semrush/Ahrefs say error; invalid markup loses rich results (shown worse), the page stays in search.',
    },
    why:
      'A JSON-LD block that does not parse is ignored entirely, so none of its structured data can be used for ' +
      'rich results or to help search engines understand the page.',
    howToFix:
      'Fix the JSON syntax of the application/ld+json script: common causes are trailing commas, unescaped ' +
      'double quotes or line breaks inside values, comments and unfilled template placeholders. Check it with ' +
      'the Rich Results Test.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'errors'],
      present: (e, view) =>
        listTable(
          view,
          'JSON-LD blocks that do not parse',
          'Parse error',
          stringsAt(e, 'errors'),
          numberAt(e, 'count'),
        ),
    },
    evaluate: ({ html }) => {
      const blocks = html?.jsonLd.filter((block) => block.ok || !block.skipped);
      if (!blocks || blocks.length === 0) return null;
      const errors = blocks.flatMap((block) => (block.ok ? [] : [block.error]));
      return errors.length > 0 ? fail({ count: errors.length, errors: errors.slice(0, 3) }) : pass();
    },
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'META_JSONLD_REQUIRED_MISSING',
    title: 'Structured data missing required properties',
    severity: 'WARNING',
    category: 'META',
    scope: 'page',
    description:
      'A Product lacks name, a Review author, itemReviewed or reviewRating, an FAQPage mainEntity or a ' +
      'BreadcrumbList itemListElement (the other rich-result rules have codes of their own).',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'As META_JSONLD_INVALID.',
    },
    why:
      'Rich results such as product details, review stars or breadcrumbs depend on certain properties; an entity ' +
      'missing them may be ignored for that feature, and validators report it as an error.',
    howToFix:
      'Add the properties the evidence lists: a Product needs a name, an FAQPage its mainEntity questions, a ' +
      'Review its author, itemReviewed and reviewRating, and a BreadcrumbList its itemListElement crumbs.',
    evidence: {
      kind: 'VALUES',
      keys: ['entities'],
      present: (e, view) =>
        view.table(
          'Entities missing required properties',
          ['Type', 'Missing'],
          recordsAt(e, 'entities').map((entity) => [
            textCell(stringAt(entity, 'type') ?? 'Unknown type'),
            listCell(stringsAt(entity, 'missing')) ?? { text: 'Unknown' },
          ]),
        ),
    },
    evaluate: ({ html }) => {
      if (!html || html.jsonLd.length === 0) return null;
      const findings = checkStructuredData(html.jsonLd);
      if (findings.checked === 0) return null;
      return findings.problems.length > 0 ? fail({ entities: findings.problems.slice(0, SAMPLE) }) : pass();
    },
    fix: (ctx) => {
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
  }),
] as const;
