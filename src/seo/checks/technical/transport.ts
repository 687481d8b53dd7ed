import { fieldOf, numberOf } from '../../fixes/fix-evidence.js';
import { formatBytes as formatFixBytes, inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { shorten } from '../../fixes/markup-text.js';
import { shellQuote } from '../../fixes/server-config-snippets.js';
import { hstsVerdict, isPlainHttp, parseResponseHeaders } from '../../headers/response-verdicts.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  bytesCell,
  formatBytes,
  hstsProblem,
  numberAt,
  optional,
  recordsAt,
  resourceTable,
  stringAt,
  textCell,
  urlCell,
} from '../evidence-presenters.js';
import { isOtherThanHtml, SAMPLE } from '../page-check-helpers.js';
import { notApplicable, result } from '../site-check-helpers.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const TECH_HTTP_PAGE = 'TECH_HTTP_PAGE';
export const TECH_HSTS_MISSING = 'TECH_HSTS_MISSING';

export const TRANSPORT_CHECKS = [
  defineCheck({
    code: TECH_HTTP_PAGE,
    title: 'No HTTPS',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    siteFact: true,
    description:
      'Pages are served over http without a redirect to https (charged once for the site; the pages are the evidence).',
    scoreReason: {
      lighthouse: 'is-on-https (best practices): fail',
      semrush: 'error (non-secure pages)',
      ahrefs: 'notice (HTTP page)',
      ours:
        'The rule\'s own WARNING: browsers mark it "Not secure" and HTTPS is a light ranking signal, but every page ' +
        'stays in search. A fact of the server: charged once (half a WARNING on the pages it reaches), never in ' +
        'health. Was a page-level CRITICAL: every http site scored 23-37.',
    },
    why:
      'Pages on plain http can be read and altered in transit, browsers mark them as not secure, and Google ' +
      'prefers https URLs as canonical and uses https as a light ranking signal.',
    howToFix:
      'Install a TLS certificate, serve the page over https and 301-redirect every http URL to its https ' +
      'equivalent; then update internal links, canonicals, hreflang and sitemaps to the https URLs.',
    evidence: {
      kind: 'VALUES',
      keys: ['url'],
      // The final URL: only news when a redirect made it differ from the occurrence's URL.
      present: (e, view) => {
        const url = stringAt(e, 'url');
        if (url && !view.isPage(url)) view.fact('Served at', urlCell(url, view.pageUrl));
      },
    },
    headersTool: isPlainHttp,
    evaluate: ({ responded, finalUrl, page }) =>
      responded && finalUrl && page.status < 400 && !isOtherThanHtml(page)
        ? isPlainHttp(finalUrl.href)
          ? fail({ url: finalUrl.href })
          : pass()
        : null,
    fix: (ctx) => {
      const host = ctx.host || 'your-site';
      return {
        summary: `Redirect http://${host} to https:// for every URL`,
        steps: [
          `${shorten(ctx.url, 140)} is served over plain http without redirecting to https: browsers mark ` +
            `it "Not secure" and Google prefers https pages.`,
          "Install a TLS certificate (Let's Encrypt is free) and redirect every http URL permanently to its " +
            'https version with the rules below.',
          'Then update internal links, canonicals and the sitemap to https, and add HSTS once https works everywhere.',
        ],
        code:
          `# nginx\nserver {\n    listen 80;\n    server_name ${host};\n    return 301 ` +
          `https://$host$request_uri;\n}\n\n# Apache (.htaccess)\nRewriteEngine On\nRewriteCond %{HTTPS} ` +
          `off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_MIXED_CONTENT',
    title: 'Mixed content',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'An https page loads http resources.',
    scoreReason: {
      lighthouse: 'is-on-https (best practices): fail',
      semrush: 'error',
      ahrefs: 'error',
      ours: "The rule's own WARNING (mixed content).",
    },
    why:
      'Browsers block or warn about http resources on https pages, so scripts, styles or images may not load and ' +
      'the page may look broken or lose its secure status.',
    howToFix:
      'Load every resource over https: update hard-coded http URLs in templates and content, use https versions ' +
      'of third-party files, and consider the upgrade-insecure-requests directive of Content-Security-Policy as ' +
      'a safety net.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'resources'],
      present: (e, view) =>
        view.table(
          'Resources loaded over http://',
          ['Resource', 'Element'],
          recordsAt(e, 'resources').map((resource) => [
            urlCell(stringAt(resource, 'url') ?? '', view.pageUrl),
            textCell(stringAt(resource, 'tag') ?? ''),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: ({ html, https }) =>
      html && https
        ? html.mixedContent.count > 0
          ? fail({ count: html.mixedContent.count, resources: html.mixedContent.sample.slice(0, SAMPLE) })
          : pass()
        : null,
    fix: (ctx) => {
      const resources = ctx.evidence
        .records('resources', 5)
        .map((entry) => ({ tag: fieldOf(entry, 'tag') ?? 'resource', url: fieldOf(entry, 'url') ?? '' }))
        .filter((r) => r.url);
      const count = ctx.evidence.number('count') ?? resources.length;
      return {
        summary: `Load ${plural(count || resources.length, 'http:// resource')} over https`,
        steps: [
          ...resources.map(
            (resource) =>
              `<${resource.tag}> loads ${shorten(resource.url, 120)}: change it ` +
              `to ${shorten(resource.url.replace(/^http:/, 'https:'), 120)} (check it works over https).`,
          ),
          'Browsers block or warn about http resources on https pages. Fix the URLs at their source ' +
            '(templates, CMS content, theme settings).',
          'As a safety net, send the Content-Security-Policy below, which makes browsers upgrade remaining ' +
            'http requests.',
        ],
        code:
          `# nginx\nadd_header Content-Security-Policy "upgrade-insecure-requests" always;\n\n# ` +
          `Apache\nHeader always set Content-Security-Policy "upgrade-insecure-requests"`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_RESOURCE_BROKEN',
    title: 'Broken resource',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    fixUnit: 'target',
    description:
      'A script, stylesheet, icon, font, media file or other subresource the page loads answers 4xx/5xx or cannot ' +
      'be fetched.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: "The rule's own WARNING (broken resources).",
    },
    why:
      'A failing script, stylesheet or font can break layout or features, and Google renders pages with their ' +
      'resources, so missing files may change what it sees and indexes.',
    howToFix:
      'Fix or remove each failing reference in the evidence: correct the path, redeploy missing build assets ' +
      '(hashed file names often go stale after a deploy) or drop the reference if it is no longer needed.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'resources'],
      present: (e, view) => resourceTable(view, 'Broken resources', 'Status', e),
    },
    sitePass: 'resourceBroken',
    evaluate: (ctx) => ctx.linkTargets()?.resourceBroken ?? null,
    fix: (ctx) => {
      const resources = ctx.evidence
        .records('resources', 5)
        .map((entry) => ({
          url: fieldOf(entry, 'url') ?? '',
          kind: fieldOf(entry, 'kind') ?? 'resource',
          status: numberOf(entry, 'status'),
          error: fieldOf(entry, 'error'),
        }))
        .filter((r) => r.url);
      const count = ctx.evidence.number('count') ?? resources.length;
      return {
        summary:
          `Repair ${plural(count || resources.length, 'broken script, stylesheet or other resource')} ` +
          `on ${pageName(ctx)}`,
        steps: [
          ...resources.map(
            (r) =>
              `The ${r.kind} ${shorten(r.url, 120)} ${
                r.status !== null ? `answers ${r.status}` : `cannot be fetched (${r.error ?? 'no response'})`
              }: restore the file, or point the tag at its current address.`,
          ),
          'A missing stylesheet or script changes how the page looks and works for visitors and for search ' +
            'engines that render it.',
          'Fix the reference where it comes from (the theme, template or build manifest) so every page is ' +
            'corrected, then re-run the audit.',
        ],
        code:
          resources.length > 0
            ? resources.map((r) => `curl -sI ${shellQuote(r.url)} | head -n 1`).join('\n')
            : undefined,
      };
    },
  }),
  defineCheck({
    code: 'TECH_RESOURCE_PRIVATE_ADDRESS',
    title: 'Resource on a private address',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    fixUnit: 'target',
    description:
      'A subresource points at a loopback, private, link-local or metadata address that visitors cannot reach; it ' +
      'is not fetched.',
    scoreReason: {
      ours: 'A resource visitors cannot load: broken resource, WARNING.',
    },
    why:
      'Visitors and search engines cannot reach loopback, private or link-local addresses, so those resources ' +
      'never load for them; the reference usually leaks from an internal environment.',
    howToFix:
      'Replace the internal address with the public URL of the resource, or serve the file from your own domain ' +
      'or CDN; search templates and configuration for the internal host name or IP so that none remain.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'resources'],
      present: (e, view) => resourceTable(view, 'Resources on private addresses', 'Reason', e),
    },
    sitePass: 'resourcePrivateAddress',
    evaluate: (ctx) => ctx.linkTargets()?.resourcePrivateAddress ?? null,
    fix: (ctx) => {
      const urls = ctx.evidence.urls('resources', 'url', 5);
      const count = ctx.evidence.number('count') ?? urls.length;
      return {
        summary: `Serve ${plural(count || urls.length, 'resource')} from a public address instead of a private one`,
        steps: [
          `The page loads ${inlineList(urls, count)} from a loopback, private or link-local address: ` +
            `visitors' browsers cannot reach it, so it is broken for them (the audit does not fetch such ` +
            `addresses).`,
          'This usually comes from a development or staging URL left in a template or CMS field: replace it ' +
            'with the public URL of the file (or a relative path).',
        ],
      };
    },
  }),
  defineCheck({
    code: TECH_HSTS_MISSING,
    title: 'Missing HSTS',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The https site sends no Strict-Transport-Security header.',
    scoreReason: {
      semrush: 'notice',
    },
    why:
      'Without HSTS, a first visit typed as http can be intercepted before the redirect to https; HSTS makes ' +
      'browsers go straight to https. It is a security measure, not a ranking factor.',
    howToFix:
      'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on https responses once every ' +
      'subdomain supports https; test with a short max-age first, and never send max-age=0 unless you mean to ' +
      'turn it off.',
    evidence: {
      kind: 'HEADERS',
      // A null header is the failure itself ("sends no Strict-Transport-Security"): nothing to add.
      keys: ['header', 'reason'],
      present: (e, view) => {
        const header = stringAt(e, 'header');
        if (header !== null)
          view.table(
            'Response header',
            ['Header', 'Value'],
            [[{ text: 'Strict-Transport-Security' }, textCell(header)]],
          );
        view.fact('Problem', optional(hstsProblem, stringAt(e, 'reason')));
      },
    },
    headersTool: hstsVerdict,
    evaluate: ({ input }) => {
      if (!input.hsts) return notApplicable('TECH_HSTS_MISSING');
      const header = input.hsts.header;
      // The verdict the headers tool gives for the same response (response-verdicts.ts).
      const verdict = hstsVerdict(
        parseResponseHeaders(header === null ? {} : { 'strict-transport-security': header }),
        input.hsts.https,
      );
      if (!verdict.applies) return notApplicable('TECH_HSTS_MISSING');
      const evidence: Record<string, unknown> = { header };
      if (!verdict.enabled && verdict.reason !== 'absent')
        evidence.reason = verdict.reason === 'invalid' ? `invalid: ${verdict.error}` : 'max-age=0';
      return result('TECH_HSTS_MISSING', !verdict.enabled, [{ url: input.startUrl, evidence }]);
    },
    fix: (ctx) => {
      const header = ctx.evidence.string('header');
      const reason = ctx.evidence.string('reason') ?? 'max-age missing or 0';
      return {
        summary: 'Send a Strict-Transport-Security header',
        steps: [
          header
            ? `The site sends "Strict-Transport-Security: ${shorten(header, 80)}", which does not enable HSTS ` +
              `(${reason}).`
            : 'The https site sends no Strict-Transport-Security header, so a first visit over http can be ' +
              'intercepted before the redirect.',
          'Add the header below on https responses. Start with a short max-age (e.g. 300) to test, then raise ' +
            'it to one year.',
          'Add includeSubDomains only when every subdomain serves https; add preload only when you intend to ' +
            'submit the domain to hstspreload.org.',
        ],
        code:
          `# nginx (https server block)\nadd_header Strict-Transport-Security "max-age=31536000; ` +
          `includeSubDomains" always;\n\n# Apache (https vhost)\nHeader always set Strict-Transport-Security ` +
          `"max-age=31536000; includeSubDomains"`,
      };
    },
  }),
  defineCheck({
    code: 'TECH_HTML_TOO_LARGE',
    title: 'HTML too large',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    description: 'The HTML document is over 1 MiB.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'warning',
      ours: 'Google reads the first 15 MB; at 1 MiB the page is slow, not out of search: WARNING.',
    },
    why:
      'HTML over 1 MiB is slow to download and parse, which delays rendering on mobile connections; search ' +
      'engine crawlers process only a limited amount of each file, so extreme sizes can also cut content off.',
    howToFix:
      'Move inline scripts, styles, SVGs and data URI images into separate cacheable files, trim large embedded ' +
      'state or JSON, and paginate or load long lists on demand instead of rendering them all at once.',
    evidence: {
      kind: 'VALUES',
      keys: ['bytes', 'analysedBytes'],
      present: (e, view) => {
        const bytes = numberAt(e, 'bytes');
        const analysed = numberAt(e, 'analysedBytes');
        if (analysed === null) return view.fact('HTML size', bytesCell(bytes));
        // Over the crawler's cap without a declared length, `bytes` is only what was read.
        view.fact(
          'HTML size',
          bytes !== null && bytes > analysed ? bytesCell(bytes) : { text: `Over ${formatBytes(analysed)}` },
        );
        view.fact('Analysed', { text: `The first ${formatBytes(analysed)} only` });
      },
    },
    evaluate: ({ html, page }) => {
      if (!html) return null;
      // Over the crawler's cap, the page was analysed on its first bytes: the evidence says how much of it.
      if (page.bodyCapped)
        return fail({ bytes: page.bodyCapped.declaredBytes ?? html.htmlBytes, analysedBytes: html.htmlBytes });
      return html.htmlBytes > T.maxHtmlBytes ? fail({ bytes: html.htmlBytes }) : pass();
    },
    fix: (ctx) => {
      const bytes = ctx.evidence.number('bytes');
      return {
        summary: `Reduce the HTML of ${pageName(ctx)}${
          bytes !== null ? ` from ${formatFixBytes(bytes)}` : ''
        } to under 1 MiB`,
        steps: [
          `The HTML document is ${bytes !== null ? formatFixBytes(bytes) : 'over 1 ' + 'MiB'}; crawlers may stop ` +
            `reading (Googlebot indexes only the first 2 MB) and it slows the first render.`,
          'Look for the bulk: inlined images (data: URIs), inline SVG sprites, big inline <script> state ' +
            '(serialized JSON), repeated markup such as hidden mega-menus or every product variant.',
          'Move scripts, styles and images to cached external files, paginate long lists, and load secondary ' +
            'content on demand.',
        ],
      };
    },
  }),
] as const;
