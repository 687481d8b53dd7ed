import { fieldOf, numberOf } from '../../fixes/fix-evidence.js';
import { pageName, plural } from '../../fixes/fix-rule-context.js';
import { linkLabel, parseChain, sameSite } from '../../fixes/link-fix-rules.js';
import { shorten } from '../../fixes/markup-text.js';
import { parentPath, pathOnly, redirectRules, shellQuote } from '../../fixes/server-config-snippets.js';
import { isRedirectChain } from '../../headers/response-verdicts.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { brokenLinkTable, linkTable, redirectTable } from '../evidence-presenters.js';
import { hasRedirectLoop, redirectChain } from '../page-check-helpers.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const LINKS_REDIRECT_CHAIN = 'LINKS_REDIRECT_CHAIN';
export const LINKS_INTERNAL_BROKEN = 'LINKS_INTERNAL_BROKEN';

export const LINK_TARGET_CHECKS = [
  defineCheck({
    code: LINKS_INTERNAL_BROKEN,
    title: 'Broken internal link',
    // The linking page stays in search: its broken link is a WARNING on it. The target that answers 4xx/5xx is the
    // critical page (TECH_STATUS_4XX/5XX, with its inlinks), and the fix is that target: priced as CRITICAL, once.
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'target',
    fixSeverity: 'CRITICAL',
    description: 'An internal link target answers 4xx/5xx or cannot be fetched.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours:
        'The linking page stays in search (WARNING on it); the target is the critical page (TECH_STATUS_4XX/5XX ' +
        'with its inlinks). One fix per target, priced as CRITICAL by its reach (rows 7, 20, 26, 27).',
    },
    why:
      'Broken internal links send visitors and crawlers to error pages, waste crawling, and stop link signals ' +
      'from reaching the page you meant to link to.',
    howToFix:
      'Update each broken link to the correct live URL, or remove it; if the target moved, also add a 301 ' +
      'redirect from the old URL. The evidence lists the failing targets and their status codes.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => brokenLinkTable(view, 'Broken internal links', e),
    },
    sitePass: 'internalBroken',
    evaluate: (ctx) => ctx.linkTargets()?.internalBroken ?? null,
    fix: (ctx) => {
      const links = ctx.evidence
        .records('links', 5)
        .map((entry) => ({ url: fieldOf(entry, 'url') ?? '', status: numberOf(entry, 'status') }))
        .filter((l) => l.url);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Fix ${plural(count || links.length, 'broken internal link')} on ${pageName(ctx)}`,
        steps: [
          ...links.map(
            (link) =>
              `${linkLabel(ctx, link.url)} answers ${link.status ?? 'no response (unreachable)'}: point it ` +
              `to the page that replaced it, or remove the link.`,
          ),
          'If the target moved or was removed and has backlinks, add a 301 redirect from the dead path to the ' +
            'closest live page (the parent section is proposed below; pick a better match if one exists).',
          'Re-run the audit to confirm no page links to the dead URLs any more; update menus and templates, ' +
            'not just this page.',
        ],
        code:
          links.length > 0
            ? redirectRules(links.map((link) => ({ from: pathOnly(link.url), to: parentPath(link.url) })))
            : undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_EXTERNAL_BROKEN',
    externalVerdicts: true,
    title: 'Broken external link',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'target',
    description:
      'An external link target answers 4xx/5xx or cannot be reached (connection refused, DNS failure, timeout, ' +
      'TLS error).',
    scoreReason: {
      semrush: 'warning',
      ahrefs: 'warning',
    },
    why:
      'Links to external pages that fail frustrate visitors and suggest the content is out of date, and they no ' +
      'longer lead readers to the source you meant to cite.',
    howToFix:
      'Replace each failing link with the current address of the resource, an archived copy or another source, ' +
      'or remove it; some sites refuse crawlers or fail only from some networks, so confirm in a browser first.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => brokenLinkTable(view, 'Broken external links', e),
    },
    sitePass: 'externalBroken',
    evaluate: (ctx) => ctx.linkTargets()?.externalBroken ?? null,
    fix: (ctx) => {
      const links = ctx.evidence
        .records('links', 5)
        .map((entry) => ({
          url: fieldOf(entry, 'url') ?? '',
          status: numberOf(entry, 'status'),
          error: fieldOf(entry, 'error'),
        }))
        .filter((l) => l.url);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Update or remove ${plural(count || links.length, 'broken external link')}`,
        steps: [
          ...links.map(
            (link) =>
              `${linkLabel(ctx, link.url)} ${
                link.status !== null ? `answers ${link.status}` : `cannot be reached (${link.error ?? 'no response'})`
              }: find its new address on that site, or check an archived copy at ` +
              `https://web.archive.org/web/*/${link.url}.`,
          ),
          'Replace each link with the working address, link to an equivalent source, or remove the link (and ' +
            'any claim relying on it).',
        ],
      };
    },
  }),
  defineCheck({
    code: 'LINKS_TO_REDIRECT',
    title: 'Link to a redirect',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    fixUnit: 'target',
    description: 'An internal link points to a URL that redirects.',
    scoreReason: {
      ahrefs: 'notice',
      ours: 'An extra hop for crawlers and visitors: ranks (crawl budget) and converts worse, mildly.',
    },
    why:
      'Each redirect adds a round trip for visitors and an extra fetch for crawlers; linking straight to the ' +
      'final URL is faster and makes your preferred URLs clearer to search engines.',
    howToFix:
      'Change the internal link to point directly at the final URL shown in the evidence; common causes are a ' +
      'missing or extra trailing slash, http instead of https, and old URLs left after a migration.',
    evidence: {
      kind: 'LINKS',
      keys: ['count', 'links'],
      present: (e, view) => linkTable(view, 'Links to URLs that redirect', e),
    },
    sitePass: 'toRedirect',
    evaluate: (ctx) => ctx.linkTargets()?.toRedirect ?? null,
    fix: (ctx) => {
      const links = ctx.evidence.urls('links', 'url', 5);
      const count = ctx.evidence.number('count') ?? links.length;
      return {
        summary: `Point ${plural(count || links.length, 'internal link')} at the final URL instead of a redirect`,
        steps: [
          `These links redirect before reaching their ` +
            `page: ${links.map((url) => linkLabel(ctx, url)).join('; ') || 'see the audit evidence'}.`,
          'Look up where each one ends (the command below prints the final URL) and replace the href with it; ' +
            'redirects cost crawl budget and a round trip for every visitor.',
          'If the links come from a menu or template, fix them there so every page is corrected.',
        ],
        code:
          links.map((url) => `curl -sIL -o /dev/null -w '%{url_effective}\\n' ${shellQuote(url)}`).join('\n') ||
          undefined,
      };
    },
  }),
  defineCheck({
    code: LINKS_REDIRECT_CHAIN,
    title: 'Redirect chain',
    severity: 'WARNING',
    category: 'LINKS',
    scope: 'page',
    description: 'Reaching the URL takes 2 or more redirect hops.',
    scoreReason: {
      lighthouse: 'redirects (perf)',
      semrush: 'error',
      ahrefs: 'notice',
    },
    why:
      'Each hop adds latency for visitors and an extra fetch for crawlers, and Googlebot stops after 10 hops; a ' +
      'single redirect to the final URL is faster and more robust.',
    howToFix:
      'Make the first redirect point straight at the final URL (for example http to https and non-www to www in ' +
      'one step) and link to the final URL; look for server, CDN and CMS rules that add hops one after another.',
    evidence: {
      kind: 'REDIRECTS',
      keys: ['hops', 'chain'],
      present: (e, view) => redirectTable(view, e),
    },
    requestedUrl: true,
    headersTool: isRedirectChain,
    evaluate: ({ page, responded }) => {
      if (!responded && page.redirects.length === 0) return null;
      return isRedirectChain(page.redirects.length)
        ? fail({ hops: page.redirects.length, chain: redirectChain(page) })
        : pass();
    },
    fix: (ctx) => {
      const chain = parseChain(ctx.evidence.strings('chain', 12));
      const hops = ctx.evidence.number('hops') ?? chain.filter((hop) => hop.status !== null).length;
      const final = chain.at(-1)?.url ?? ctx.url;
      const seen = new Set<string>();
      // http://a/x and https://a/x share one path rule: the server block decides per host and scheme.
      const sources = chain.filter((hop) => {
        const path = pathOnly(hop.url);
        if (hop.status === null || hop.url === final || !sameSite(ctx, hop.url) || seen.has(path)) return false;
        seen.add(path);
        return true;
      });
      return {
        summary: `Collapse the ${hops}-hop redirect chain into one redirect to ${shorten(final, 100)}`,
        steps: [
          `Reaching the page takes ${hops} redirects: ${chain
            .map((hop) => `${shorten(hop.url, 80)}${hop.status ? ` (${hop.status})` : ''}`)
            .join(' → ')}.`,
          `Make every old URL redirect straight to ${shorten(final, 140)} with a single 301, as in the ` +
            `rules below (they replace the step-by-step rules).`,
          'Update internal links, canonicals and the sitemap to use the final URL so visitors and crawlers ' +
            'skip the redirects entirely.',
        ],
        code:
          sources.length > 0
            ? redirectRules(sources.map((hop) => ({ from: pathOnly(hop.url), to: final })))
            : undefined,
      };
    },
  }),
  defineCheck({
    code: 'LINKS_REDIRECT_LOOP',
    title: 'Redirect loop',
    severity: 'CRITICAL',
    category: 'LINKS',
    scope: 'page',
    description: 'The redirects return to a URL already visited.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL by the rule: the URL never answers.',
    },
    why:
      'A redirect loop never reaches a page: browsers show an error, and search engines cannot crawl or index ' +
      'the URL.',
    howToFix:
      'Trace the chain in the evidence and fix the rule that sends the URL back to an earlier one, often ' +
      'conflicting http/https, www or trailing-slash rules between server, CDN and CMS; the final URL must ' +
      'answer 200.',
    evidence: { kind: 'REDIRECTS', keys: ['chain'], present: (e, view) => redirectTable(view, e) },
    requestedUrl: true,
    evaluate: ({ page, responded }) => {
      if (!responded && page.redirects.length === 0 && !page.redirectLoop) return null;
      return page.redirectLoop || hasRedirectLoop(page) ? fail({ chain: redirectChain(page) }) : pass();
    },
    fix: (ctx) => {
      const chain = parseChain(ctx.evidence.strings('chain', 12));
      return {
        summary: `Break the redirect loop at ${shorten(ctx.url, 100)}`,
        steps: [
          chain.length > 0
            ? `The redirects go round in a circle: ${chain.map((hop) => shorten(hop.url, 80)).join(' → ')}; ` +
              `browsers give up with "too many redirects".`
            : 'The URL redirects back to a URL already visited, so browsers give up with "too many redirects".',
          'Find the two rules that send the URLs to each other: typical causes are http↔https or www↔non-www ' +
            'rules that disagree, a trailing-slash rule fighting the CMS, or a CDN forcing https while the ' +
            'origin redirects to http.',
          'Decide the one final URL (https, one host, one slash style) and make every rule point to it; then ' +
            'trace again with the command below.',
        ],
        code: `curl -sIL --max-redirs 10 ${shellQuote(ctx.url)} | grep -iE '^(HTTP|location)'`,
      };
    },
  }),
] as const;
