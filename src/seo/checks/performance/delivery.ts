import { inlineList, plural } from '../../fixes/fix-rule-context.js';
import { escapeHtml } from '../../fixes/markup-text.js';
import { extensionOf } from '../../fixes/performance-fix-rules.js';
import {
  cacheVerdict,
  compressionVerdict,
  isStaticAssetResponse,
  parseResponseHeaders,
  sharedResponseHeaders,
  type ResponseHeaders,
} from '../../headers/response-verdicts.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import { numberAt, numberCell, stringsAt, urlCell } from '../evidence-presenters.js';
import { SAMPLE, isSuccess } from '../page-check-helpers.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const PERF_NO_COMPRESSION = 'PERF_NO_COMPRESSION';
export const PERF_NO_CACHE_HEADERS = 'PERF_NO_CACHE_HEADERS';

export const DELIVERY_CHECKS = [
  defineCheck({
    code: PERF_NO_COMPRESSION,
    title: 'Uncompressed response',
    severity: 'NOTICE',
    category: 'PERFORMANCE',
    scope: 'page',
    siteFact: true,
    description: 'A text response is sent without gzip, br or zstd compression.',
    scoreReason: {
      lighthouse: 'uses-text-compression (perf)',
      semrush: 'warning',
      ours: 'A fact of the server: charged once for the site.',
    },
    why:
      'Uncompressed HTML, CSS, JavaScript and other text responses are often several times larger than they need ' +
      'to be, which slows downloads for visitors and crawlers.',
    howToFix:
      'Enable Brotli or gzip (or zstd) for text types such as HTML, CSS, JavaScript, JSON, SVG and XML in the ' +
      'web server, CDN or application, and check that responses carry a Content-Encoding header.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'urls'],
      present: (e, view) =>
        view.table(
          'Responses sent uncompressed',
          ['URL'],
          stringsAt(e, 'urls').map((url) => [urlCell(url, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    headersTool: compressionVerdict,
    evaluate: ({ page }) => {
      // The page itself and the subresources the crawler fetched, each judged by the shared response verdict.
      const candidates: { url: string; compressed: boolean }[] = [];
      const judge = (url: string, headers: ResponseHeaders, status: number, bodyBytes: number | undefined) => {
        const verdict = compressionVerdict(headers, { status, bodyBytes });
        if (verdict.applies) candidates.push({ url, compressed: verdict.compressed });
      };
      judge(page.finalUrl, parseResponseHeaders(page.headers), page.status, page.bytes);
      for (const resource of page.resources ?? []) {
        // A resource without a status was not fetched by the crawler itself; its headers are what it was given.
        if (resource.headers)
          judge(resource.url, sharedResponseHeaders(resource.headers), resource.status ?? 200, resource.bytes);
      }
      if (candidates.length === 0) return null;
      const plain = candidates.filter((candidate) => !candidate.compressed);
      return plain.length > 0 ? fail({ count: plain.length, urls: plain.slice(0, SAMPLE).map((c) => c.url) }) : pass();
    },
    fix: (ctx) => {
      const urls = ctx.evidence.strings('urls', 5);
      const count = ctx.evidence.number('count') ?? urls.length;
      return {
        summary: `Enable gzip or Brotli compression for ${plural(count || urls.length, 'text response')}`,
        steps: [
          `${
            urls.length > 0
              ? `These responses are sent uncompressed: ${inlineList(urls, count)}.`
              : 'Text responses are sent uncompressed.'
          } HTML, CSS, JS, JSON and SVG typically shrink by 70–80% with gzip or Brotli.`,
          'Enable compression in the web server (below) or the CDN; Brotli needs the ngx_brotli module on ' +
            'nginx or mod_brotli on Apache.',
          'Verify with: curl -sI -H "Accept-Encoding: br, gzip" <url> | grep -i content-encoding.',
        ],
        code:
          '# nginx (http block)\ngzip on;\ngzip_comp_level 5;\ngzip_min_length 1024;\ngzip_vary on;\ngzip_types ' +
          'text/css application/javascript application/json image/svg+xml text/plain text/xml ' +
          'application/xml;\n\n# Apache (mod_deflate)\nAddOutputFilterByType DEFLATE text/html text/css ' +
          'application/javascript application/json image/svg+xml text/plain text/xml application/xml',
      };
    },
  }),
  defineCheck({
    code: 'PERF_RENDER_BLOCKING',
    title: 'Render-blocking resources',
    severity: 'NOTICE',
    category: 'PERFORMANCE',
    scope: 'page',
    description: 'A synchronous script in <head> without async/defer, or many blocking stylesheets.',
    scoreReason: {
      lighthouse: 'render-blocking-resources (perf)',
    },
    why:
      'Synchronous scripts and stylesheets in the head must be downloaded before the browser can paint anything, ' +
      'which delays the First and Largest Contentful Paint.',
    howToFix:
      'Add defer (or async for independent scripts) to scripts in the head or move them to the end of the body, ' +
      'inline the critical CSS, and combine stylesheets so the head has no more than three blocking ones.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['scripts', 'stylesheets', 'resources'],
      present: (e, view) => {
        view.fact('Blocking scripts', numberCell(numberAt(e, 'scripts')));
        view.fact('Blocking stylesheets', numberCell(numberAt(e, 'stylesheets')));
        // The sample holds src/href as written (often relative).
        view.table(
          'Render-blocking resources',
          ['Resource'],
          stringsAt(e, 'resources').map((href) => [urlCell(href, view.pageUrl)]),
        );
      },
    },
    evaluate: ({ html }) => {
      if (!html) return null;
      const { scripts, stylesheets, sample } = html.renderBlocking;
      return scripts > 0 || stylesheets > T.maxBlockingStylesheets
        ? fail({ scripts, stylesheets, resources: sample.slice(0, SAMPLE) })
        : pass();
    },
    fix: (ctx) => {
      const scripts = ctx.evidence.number('scripts') ?? 0;
      const stylesheets = ctx.evidence.number('stylesheets') ?? 0;
      const resources = ctx.evidence.strings('resources', 5);
      const lines = resources.map((src) =>
        extensionOf(src) === 'css' || /\.css(\?|$)/i.test(src)
          ? `<link rel="preload" href="${escapeHtml(src)}" as="style" onload="this.onload=null;this.rel='stylesheet'">`
          : `<script src="${escapeHtml(src)}" defer></script>`,
      );
      return {
        summary: `Unblock rendering: defer ${plural(scripts, 'script')}${
          stylesheets > T.maxBlockingStylesheets ? ` and reduce ${stylesheets} blocking stylesheets` : ''
        }`,
        steps: [
          `<head> holds ${plural(scripts, 'synchronous script')} and ${plural(stylesheets, 'blocking stylesheet')}${
            resources.length > 0 ? `: ${inlineList(resources, scripts + stylesheets)}` : ''
          }. The browser draws nothing until they load.`,
          'Add defer to scripts that do not have to run before the first paint (async for independent ones ' +
            'such as analytics); keep only tiny inline bootstrap code synchronous.',
          stylesheets > T.maxBlockingStylesheets
            ? `Combine the ${stylesheets} stylesheets, inline the critical CSS for above-the-fold content and ` +
              `load the rest non-blocking (pattern below).`
            : 'Inline the critical CSS for above-the-fold content and load non-critical CSS without blocking.',
        ],
        code: lines.join('\n') || undefined,
      };
    },
  }),
  defineCheck({
    code: PERF_NO_CACHE_HEADERS,
    title: 'Static asset without caching',
    severity: 'NOTICE',
    category: 'PERFORMANCE',
    scope: 'page',
    siteFact: true,
    description: 'A static asset has no Cache-Control max-age and no ETag/Last-Modified.',
    scoreReason: {
      lighthouse: 'uses-long-cache-ttl (perf)',
      semrush: 'warning',
      ours: 'A fact of the server: charged once for the site.',
    },
    why:
      'Without caching headers, browsers and CDNs may download static assets again on every visit, which makes ' +
      'repeat visits and moving between pages slower.',
    howToFix:
      'Send "Cache-Control: max-age=31536000, immutable" for versioned assets whose file names contain a content ' +
      'hash, and a shorter max-age plus an ETag or Last-Modified header for assets whose URL does not change.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'urls'],
      present: (e, view) =>
        view.table(
          'Static assets without caching headers',
          ['Asset'],
          stringsAt(e, 'urls').map((url) => [urlCell(url, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    headersTool: cacheVerdict,
    evaluate: ({ page }) => {
      const assets = (page.resources ?? []).flatMap((resource) => {
        if (!resource.headers || !isSuccess(resource.status)) return [];
        const headers = sharedResponseHeaders(resource.headers);
        return isStaticAssetResponse(headers, resource.kind) ? [{ url: resource.url, headers }] : [];
      });
      if (assets.length === 0) return null;
      const uncached = assets.filter((asset) => !cacheVerdict(asset.headers).cacheable);
      return uncached.length > 0
        ? fail({ count: uncached.length, urls: uncached.slice(0, SAMPLE).map((r) => r.url) })
        : pass();
    },
    fix: (ctx) => {
      const urls = ctx.evidence.strings('urls', 5);
      const count = ctx.evidence.number('count') ?? urls.length;
      const found = [...new Set(urls.map(extensionOf).filter((ext): ext is string => ext !== null))];
      const extensions = found.length > 0 ? found : ['css', 'js', 'png', 'jpg', 'webp', 'svg', 'woff2'];
      return {
        summary: `Send caching headers for ${plural(count || urls.length, 'static asset')}`,
        steps: [
          `${
            urls.length > 0
              ? `These assets have no Cache-Control max-age, ETag or Last-Modified: ${inlineList(urls, count)}.`
              : 'Static assets are sent without caching headers.'
          } Browsers re-download them on every visit.`,
          'Give fingerprinted assets (file names with a content hash) a one-year immutable cache, and other ' +
            'static files at least a revalidating cache (ETag/Last-Modified, which nginx and Apache send for ' +
            'files by default unless disabled).',
          `The rules below cover the file types found (${extensions.map((ext) => `.${ext}`).join(', ')}).`,
        ],
        code:
          `# nginx (server block)\nlocation ~* \\.(${extensions.join('|')})$ {\n    expires 1y;\n    ` +
          `add_header Cache-Control "public, max-age=31536000, immutable";\n}\n\n# Apache ` +
          `(mod_headers)\n<FilesMatch "\\.(${extensions.join('|')})$">\n    Header set Cache-Control "public, ` +
          `max-age=31536000, immutable"\n</FilesMatch>`,
      };
    },
  }),
] as const;
