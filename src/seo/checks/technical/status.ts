import { shorten } from '../../fixes/markup-text.js';
import { parentPath, pathOnly, redirectRules, shellQuote } from '../../fixes/server-config-snippets.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { httpStatusFact, NOTHING, stringAt, textCell } from '../evidence-presenters.js';
import { LINKS_INTERNAL_BROKEN } from '../links/targets.js';

export const STATUS_CHECKS = [
  defineCheck({
    code: 'TECH_STATUS_4XX',
    title: 'Page answers 4xx',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The crawled page answers with a 4xx status.',
    scoreReason: {
      lighthouse: 'http-status-code: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL by the rule (4xx/5xx).',
    },
    why:
      'A page that answers 4xx is treated as missing or inaccessible: search engines do not index it (or drop ' +
      'it), and visitors see an error instead of content.',
    howToFix:
      'If the page should exist, restore it or fix the route so it answers 200; if it moved, 301-redirect it to ' +
      'the new URL; if it is gone for good, keep the 404 or 410 and remove links and sitemap entries pointing to ' +
      'it.',
    evidence: { kind: 'VALUES', keys: ['status', 'inlinks'], present: httpStatusFact },
    chargedWith: LINKS_INTERNAL_BROKEN,
    evaluate: ({ page, responded }) =>
      responded ? (page.status >= 400 && page.status < 500 ? fail({ status: page.status }) : pass()) : null,
    fix: (ctx) => {
      const status = ctx.evidence.number('status') ?? 404;
      const gone = status === 404 || status === 410;
      const steps = gone
        ? [
            `${shorten(ctx.url, 140)} answers ${status}: the page is gone, but something still links to it ` +
              `(the crawler found it).`,
            'If the content moved, 301-redirect this URL to its new address (the parent section is proposed ' +
              'below when no better match exists).',
            'If it is gone for good, keep the 404/410, remove the internal links that point here and drop it ' +
              'from the sitemap.',
          ]
        : status === 401 || status === 403
          ? [
              `${shorten(ctx.url, 140)} answers ${status}: crawlers are refused.`,
              'If the page is public, check server rules, firewall/WAF bot protection and IP allow-lists that ' +
                'block crawler user agents.',
              'If it is private, remove public links to it and exclude it from the sitemap.',
            ]
          : status === 429
            ? [
                `${shorten(ctx.url, 140)} answers 429: the server rate-limits crawlers.`,
                'Raise the rate limit for verified search-engine crawlers, or serve cached pages to them; ' +
                  'answer 503 with Retry-After during overload instead.',
              ]
            : [
                `${shorten(ctx.url, 140)} answers ${status}.`,
                'Make the URL answer 200 with the page, or redirect it (301) to the right page, and update the ' +
                  'links that point here.',
              ];
      return {
        summary: `Fix ${shorten(ctx.url, 100)} answering ${status}`,
        steps,
        code: gone ? redirectRules([{ from: pathOnly(ctx.url), to: parentPath(ctx.url) }]) : undefined,
      };
    },
  }),
  defineCheck({
    code: 'TECH_STATUS_5XX',
    title: 'Page answers 5xx',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The crawled page answers with a 5xx status.',
    scoreReason: {
      lighthouse: 'http-status-code: fail (SEO)',
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL by the rule (4xx/5xx).',
    },
    why:
      'Server errors stop crawlers from reading the page; if they persist, search engines slow down crawling of ' +
      'the site and may drop the URL from the index.',
    howToFix:
      'Check the server and application logs for the failing URL, fix the cause (a crash, an unreachable ' +
      'database or upstream service, resource limits) and confirm it answers 200; use 503 only for planned, ' +
      'short downtime.',
    evidence: { kind: 'VALUES', keys: ['status', 'inlinks'], present: httpStatusFact },
    chargedWith: LINKS_INTERNAL_BROKEN,
    evaluate: ({ page, responded }) =>
      responded ? (page.status >= 500 && page.status < 600 ? fail({ status: page.status }) : pass()) : null,
    fix: (ctx) => {
      const status = ctx.evidence.number('status') ?? 500;
      const cause =
        status === 502 || status === 504
          ? `${status} comes from a proxy or load balancer whose upstream (the application server) failed or ` +
            `was too slow: check that the app is running and its timeouts.`
          : status === 503
            ? '503 means unavailable: if this was maintenance, send a Retry-After header and keep maintenance ' +
              'short; otherwise check capacity and rate limiting.'
            : `${status} is an application error: find the exception in the application or PHP error log for ` +
              `this URL and fix it.`;
      return {
        summary: `Fix the server error ${status} on ${shorten(ctx.url, 100)}`,
        steps: [
          `${shorten(ctx.url, 140)} answered ${status}; repeated server errors make search engines crawl ` +
            `less and drop the page.`,
          cause,
          'Reproduce it with the command below, and add monitoring that alerts on 5xx responses.',
        ],
        code: `curl -sS -o /dev/null -w '%{http_code} %{time_total}s\\n' ${shellQuote(ctx.url)}`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_TIMEOUT',
    title: 'Page timed out',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'Fetching the page timed out.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL by the rule: no document, for crawlers and visitors.',
    },
    why:
      'A page that does not respond in time cannot be crawled or indexed, and visitors are likely to leave ' +
      'before it loads.',
    howToFix:
      'Find what makes the response slow: profile slow database queries and upstream calls, cache the rendered ' +
      'page, and check server capacity; aim for a time to first byte under 800 ms.',
    evidence: NOTHING,
    evaluate: ({ page }) => (page.timedOut ? fail() : pass()),
    fix: (ctx) => ({
      summary: `Make ${shorten(ctx.url, 100)} answer before the crawler times out`,
      steps: [
        'The crawler got no complete response in time; search engines give up on such pages too.',
        'Measure where the time goes with the command below (connect vs. first byte vs. total): a slow first ' +
          'byte points to the application or database, a slow total to a huge or slowly streamed body.',
        'Cache the rendered page (full-page cache or CDN), fix slow queries, and make sure no request waits on ' +
          'an unreachable third-party service without a timeout.',
      ],
      code:
        `curl -sS -o /dev/null -w 'connect %{time_connect}s, first byte %{time_starttransfer}s, total ` +
        `%{time_total}s\\n' ${shellQuote(ctx.url)}`,
    }),
  }),
  defineCheck({
    code: 'PAGE_FETCH_FAILED',
    title: 'Page could not be fetched',
    severity: 'CRITICAL',
    category: 'TECHNICAL',
    scope: 'page',
    description:
      'No usable response: the connection failed or was refused, the host did not resolve, the fetch timed out or ' +
      'redirected in a loop, or the address is refused.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: 'CRITICAL by the rule: no document (connection, DNS, TLS, loop).',
    },
    why:
      'When a URL gives no usable response, search engines cannot crawl it and visitors see a browser error; if ' +
      'it persists, the URL may be dropped from the index.',
    howToFix:
      'Check the error in the evidence against DNS records, whether the server accepts connections, the TLS ' +
      'certificate, firewall or bot-protection rules and redirect rules; a host that resolves to a private ' +
      'address is refused.',
    evidence: {
      kind: 'VALUES',
      keys: ['error'],
      present: (e, view) => view.fact('Error', textCell(stringAt(e, 'error'))),
    },
    evaluate: ({ page }) => (page.fetchError ? fail({ error: page.fetchError }) : pass()),
    fix: (ctx) => ({
      summary: `Make ${shorten(ctx.url, 100)} reachable for crawlers`,
      steps: [
        `The crawler got no usable response: ${shorten(ctx.evidence.string('error') ?? 'the fetch failed', 200)}.`,
        'A page that cannot be fetched cannot be indexed: check that the host resolves, the server accepts ' +
          'connections on this port, its TLS certificate is valid, and no redirect leads to a private address or ' +
          'back to itself.',
        'Reproduce it with the command below from a machine outside your network.',
      ],
      code: `curl -sSIL --max-time 20 ${shellQuote(ctx.url)}`,
    }),
  }),
] as const;
