import { formatBytes as formatFixBytes, formatCount, inlineList } from '../../fixes/fix-rule-context.js';
import { escapeHtml, shorten } from '../../fixes/markup-text.js';
import { heroImage, metricSentence, thirdPartyOrigins } from '../../fixes/performance-fix-rules.js';
import { shellQuote } from '../../fixes/server-config-snippets.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import { formatBytes, formatMs, formatNumber, metricPresenter } from '../evidence-presenters.js';
import { metric } from '../page-check-helpers.js';

export const METRIC_CHECKS = [
  defineCheck({
    code: 'PERF_LCP',
    title: 'Slow Largest Contentful Paint',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    lighthouseScored: true,
    needs: 'LAB_BROWSER',
    description: 'LCP over 2,500 ms (notice) or 4,000 ms (warning).',
    scoreReason: {
      lighthouse: 'largest-contentful-paint (perf, scored)',
      semrush: 'error (slow load speed)',
      ahrefs: 'notice (slow page)',
      ours:
        'Banded, each page at its band: needs improvement NOTICE, poor WARNING (the rule: "slow vitals in the poor ' +
        'band"). Lighthouse\'s score weighs it instead when lab metrics exist.',
    },
    why:
      'LCP measures when the main content appears; it is a Core Web Vital, which Google uses as one of many ' +
      'ranking signals. Over 2,500 ms needs improvement and over 4,000 ms is poor.',
    howToFix:
      'Make the largest element load early: serve a compressed, correctly sized hero image, do not lazy-load it, ' +
      'give it fetchpriority="high" or a preload, and cut server response time and render-blocking CSS and ' +
      'scripts.',
    evidence: metricPresenter('lcpMs', 'Largest Contentful Paint', formatMs),
    evaluate: ({ page }) => metric(page.labMetrics?.lcpMs, T.metrics.lcp, 'lcpMs'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'lcp');
      const hero = heroImage(ctx);
      return {
        summary: `Speed up Largest Contentful Paint (${metric.short}) to 2.5 s or less`,
        steps: [
          metric.sentence,
          hero
            ? `The largest element is likely the image ${shorten(hero, 120)}: preload it with high fetch ` +
              `priority, never lazy-load it, and serve it in AVIF/WebP at the displayed size.`
            : 'Find the LCP element in Chrome DevTools (Performance panel, "LCP" marker); if it is an image, ' +
              'preload it with high fetch priority and never lazy-load it.',
          'Cut what delays it: slow server response (cache the HTML), render-blocking CSS/JS in <head>, and ' +
            'web fonts hiding text (font-display: swap).',
        ],
        code: hero
          ? `<link rel="preload" as="image" href="${escapeHtml(hero)}" fetchpriority="high">\n<img ` +
            `src="${escapeHtml(hero)}" fetchpriority="high" loading="eager" decoding="async">`
          : undefined,
      };
    },
  }),
  defineCheck({
    code: 'PERF_CLS',
    title: 'High Cumulative Layout Shift',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    lighthouseScored: true,
    needs: 'LAB_BROWSER',
    description: 'CLS over 0.1 (notice) or 0.25 (warning).',
    scoreReason: {
      lighthouse: 'cumulative-layout-shift (perf, scored)',
      ours: 'As PERF_LCP.',
    },
    why:
      'CLS measures how much content jumps around while the page loads, which causes misclicks; it is a Core Web ' +
      'Vital, rated needs improvement over 0.1 and poor over 0.25.',
    howToFix:
      'Reserve space for images, videos, iframes and ads with width and height attributes or CSS aspect-ratio, ' +
      'do not insert content above existing content, and use size-matched fallback fonts to limit shifts when ' +
      'fonts load.',
    evidence: metricPresenter('cls', 'Cumulative Layout Shift', (value) => formatNumber(value, 3)),
    evaluate: ({ page }) => metric(page.labMetrics?.cls, T.metrics.cls, 'cls'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'cls');
      const images = (ctx.page?.images ?? []).slice(0, 3).map((image) => image.src);
      return {
        summary: `Stop layout shifts (CLS ${metric.short}; target 0.1 or less)`,
        steps: [
          metric.sentence,
          images.length > 0
            ? `Give every image and video width and height attributes ` +
              `(e.g. ${inlineList(images, images.length)}) so the browser reserves their space ` +
              `before they load.`
            : 'Give every image, video and iframe width and height attributes so the browser reserves their space.',
          'Reserve space for ads, embeds and cookie banners (min-height or aspect-ratio), and never insert ' +
            'content above what is already shown.',
          'Load web fonts with font-display: optional or a size-adjusted fallback so swapping fonts does not ' +
            'reflow text.',
        ],
        code:
          'img, video { max-width: 100%; height: auto; }\niframe[src*="youtube"] { width: 100%; aspect-ratio: 16 ' +
          '/ 9; height: auto; }\n@font-face { font-display: optional; }',
      };
    },
  }),
  defineCheck({
    code: 'PERF_INP',
    title: 'Slow Interaction to Next Paint',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    needs: 'LAB_BROWSER',
    description: 'INP over 200 ms (notice) or 500 ms (warning).',
    scoreReason: {
      lighthouse: '— (field metric; TBT in the lab)',
      ours: 'As PERF_LCP.',
    },
    why:
      'INP measures how quickly the page responds to clicks, taps and key presses; it is a Core Web Vital, rated ' +
      'needs improvement over 200 ms and poor over 500 ms.',
    howToFix:
      'Break up long JavaScript tasks, do less work in event handlers and defer what is not urgent, reduce ' +
      'third-party scripts, and keep the DOM small so the update after an interaction renders quickly.',
    evidence: metricPresenter('inpMs', 'Interaction to Next Paint', formatMs),
    evaluate: ({ page }) => metric(page.labMetrics?.inpMs, T.metrics.inp, 'inpMs'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'inp');
      return {
        summary: `Make interactions respond faster (INP ${metric.short}; target 200 ms or less)`,
        steps: [
          metric.sentence,
          'Record an interaction in Chrome DevTools (Performance panel) and find the long event handlers; show ' +
            'visual feedback first, then do the heavy work after yielding to the browser (snippet below).',
          'Break long tasks apart, debounce input handlers, avoid forced layouts (reading offsetHeight after ' +
            'writing styles), and trim third-party scripts that run on every click.',
        ],
        code:
          'const yieldToMain = () => (globalThis.scheduler?.yield ? scheduler.yield() : new Promise((resolve) => ' +
          'setTimeout(resolve, 0)));\n\nbutton.addEventListener("click", async () => {\n  showPendingState();  ' +
          '// paint feedback first\n  await yieldToMain();\n  doExpensiveWork();\n});',
      };
    },
  }),
  defineCheck({
    code: 'PERF_TBT',
    title: 'High Total Blocking Time',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    lighthouseScored: true,
    needs: 'LAB_BROWSER',
    description: 'TBT over 200 ms (notice) or 600 ms (warning).',
    scoreReason: {
      lighthouse: 'total-blocking-time (perf, scored)',
      ours: 'As PERF_LCP.',
    },
    why:
      'TBT is the lab measure of how much long tasks block the main thread during load; it predicts poor ' +
      'responsiveness (INP) and carries the largest weight in the Lighthouse performance score.',
    howToFix:
      'Reduce and split JavaScript: remove unused code, split bundles by route, defer or lazy-load third-party ' +
      'scripts and non-critical widgets, and move heavy computation off the main thread, for example to a web ' +
      'worker.',
    evidence: metricPresenter('tbtMs', 'Total Blocking Time', formatMs),
    evaluate: ({ page }) => metric(page.labMetrics?.tbtMs, T.metrics.tbt, 'tbtMs'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'tbt');
      return {
        summary: `Cut main-thread blocking during load (TBT ${metric.short}; target 200 ms or less)`,
        steps: [
          metric.sentence,
          'Find the long tasks in Lighthouse ("Avoid long main-thread tasks", "Reduce JavaScript execution ' +
            'time") and see which scripts own them.',
          'Defer non-critical scripts, split large bundles by route, remove unused libraries and delay ' +
            'third-party tags (chat, A/B testing, analytics) until after load or interaction.',
          'Process long loops in chunks that yield to the browser every ~50 ms (snippet below).',
        ],
        code:
          'async function processInChunks(items, work) {\n  let start = performance.now();\n  for (const item of ' +
          'items) {\n    work(item);\n    if (performance.now() - start > 50) {\n      await new ' +
          'Promise((resolve) => setTimeout(resolve, 0));\n      start = performance.now();\n    }\n  }\n}',
      };
    },
  }),
  defineCheck({
    code: 'PERF_FCP',
    title: 'Slow First Contentful Paint',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    lighthouseScored: true,
    needs: 'LAB_BROWSER',
    description: 'FCP over 1,800 ms (notice) or 3,000 ms (warning).',
    scoreReason: {
      lighthouse: 'first-contentful-paint (perf, scored)',
      ours: 'As PERF_LCP.',
    },
    why:
      'FCP marks when the first text or image appears; a late first paint makes the page feel unresponsive and ' +
      'visitors more likely to leave. Over 1,800 ms needs improvement and over 3,000 ms is poor.',
    howToFix:
      'Reduce server response time, inline the critical CSS and load the rest later, add defer or async to ' +
      'scripts, preconnect to required origins, and use font-display: swap so text shows while web fonts load.',
    evidence: metricPresenter('fcpMs', 'First Contentful Paint', formatMs),
    evaluate: ({ page }) => metric(page.labMetrics?.fcpMs, T.metrics.fcp, 'fcpMs'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'fcp');
      const origins = thirdPartyOrigins(ctx);
      return {
        summary: `Show first content sooner (FCP ${metric.short}; target 1.8 s or less)`,
        steps: [
          metric.sentence,
          'Remove render-blocking resources from <head>: add defer to scripts, inline the small critical CSS ' +
            'and load the rest without blocking.',
          origins.length > 0
            ? `Preconnect to the other origins the page loads from (${inlineList(origins)}) so their ` +
              `connections start early.`
            : 'Preconnect to third-party origins the page needs early (fonts, CDN), and self-host critical fonts.',
          'Make sure the server answers fast (see TTFB) and text stays visible while fonts load (font-display: swap).',
        ],
        code:
          origins.length > 0
            ? origins.map((origin) => `<link rel="preconnect" href="${escapeHtml(origin)}" crossorigin>`).join('\n')
            : undefined,
      };
    },
  }),
  defineCheck({
    code: 'PERF_TTFB',
    title: 'Slow server response (TTFB)',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    description: 'Time to first byte over 800 ms (notice) or 1,800 ms (warning).',
    scoreReason: {
      lighthouse: 'server-response-time (perf)',
      semrush: 'error (slow load speed)',
      ahrefs: 'notice (slow page)',
      ours: 'As PERF_LCP.',
    },
    why:
      'A slow first byte delays everything else the page loads and limits how fast crawlers can fetch pages. ' +
      'Over 800 ms needs improvement and over 1,800 ms is poor.',
    howToFix:
      'Cache rendered pages on the server or a CDN, speed up slow database queries and upstream API calls, avoid ' +
      'redirects before the page, and make sure hosting has enough capacity and is close to your visitors.',
    evidence: metricPresenter('ttfbMs', 'Time to first byte', formatMs),
    evaluate: ({ page, responded }) =>
      metric(page.labMetrics?.ttfbMs ?? (responded ? page.responseMs : undefined), T.metrics.ttfb, 'ttfbMs'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'ttfb');
      return {
        summary: `Reduce server response time (TTFB ${metric.short}; target 800 ms or less)`,
        steps: [
          metric.sentence,
          'Cache rendered pages: a full-page cache in the application or web server, or a CDN that caches ' +
            'HTML; the nginx micro-cache below serves repeated requests from memory.',
          'Profile the uncached request: slow database queries, calls to external APIs during rendering and ' +
            'cold application starts are the usual causes.',
          'Serve from a region close to your visitors and enable HTTP/2 or HTTP/3 with TLS session resumption.',
        ],
        code:
          `# nginx (http block)\nproxy_cache_path /var/cache/nginx levels=1:2 keys_zone=pages:10m max_size=1g ` +
          `inactive=10m;\n\n# nginx (location proxying to the app)\nproxy_cache pages;\nproxy_cache_valid 200 ` +
          `1m;\nproxy_cache_use_stale updating error timeout;\nproxy_cache_bypass $cookie_session;\n\n# ` +
          `measure\ncurl -sS -o /dev/null -w 'first byte %{time_starttransfer}s\\n' ${shellQuote(ctx.url)}`,
      };
    },
  }),
  defineCheck({
    code: 'PERF_DOM_SIZE',
    title: 'Excessive DOM size',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    description: 'Over 800 elements (notice) or 1,400 (warning).',
    scoreReason: {
      lighthouse: 'dom-size (perf): warn over 800, fail over 1,400',
      ours:
        "Lighthouse's bands: over 800 elements a NOTICE, over 1,400 a WARNING, each page at its own band. Was " +
        'WARNING/CRITICAL over 1,500/3,000, charged at the worst band on every affected page.',
    },
    why:
      'A large DOM uses more memory and makes style calculation, layout and scripts slower, especially on ' +
      'phones, which hurts loading and responsiveness. Over 800 elements is a notice, over 1,400 a warning.',
    howToFix:
      'Reduce elements: remove needless wrapper elements, paginate long lists and tables or render only the ' +
      'visible rows, load off-screen sections such as mega menus or reviews on demand, and avoid separate mobile ' +
      'and desktop markup.',
    evidence: metricPresenter('elements', 'DOM elements', (value) => formatNumber(value)),
    evaluate: ({ html }) => metric(html?.domElements, T.metrics.domSize, 'elements'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'domSize');
      return {
        summary: `Shrink the DOM (${metric.short}; target under ${formatCount(T.metrics.domSize.good)})`,
        steps: [
          metric.sentence,
          'Large DOMs slow every style recalculation and interaction. Look for hidden duplicates (mobile and ' +
            'desktop menus both rendered, every tab panel pre-rendered) and deep wrapper nesting from page builders.',
          'Paginate or virtualize long lists, render off-screen sections on demand, and apply ' +
            'content-visibility: auto to long below-the-fold sections.',
        ],
        code: '.below-the-fold-section {\n  content-visibility: auto;\n  contain-intrinsic-size: auto 800px;\n}',
      };
    },
  }),
  defineCheck({
    code: 'PERF_PAGE_WEIGHT',
    title: 'Heavy page',
    severity: 'WARNING',
    category: 'PERFORMANCE',
    scope: 'page',
    banded: true,
    needs: 'LAB_BROWSER',
    description: 'Total page weight over 2,667 KiB (notice) or 4,000 KiB (warning).',
    scoreReason: {
      lighthouse: 'total-byte-weight (perf)',
      semrush: 'warning (JS/CSS size)',
      ahrefs: 'notice',
      ours: 'As PERF_LCP.',
    },
    why:
      'Heavy pages load slowly on mobile and metered connections and cost visitors data; the 2,667 KiB and 4,000 ' +
      'KiB bands follow the Lighthouse scoring of total byte weight.',
    howToFix:
      'Find the largest transfers in the evidence or the browser developer tools: compress and resize images ' +
      '(WebP or AVIF), remove unused JavaScript and CSS, subset or drop web fonts, and lazy-load media and ' +
      'embeds below the fold.',
    evidence: metricPresenter('bytes', 'Page weight', formatBytes),
    evaluate: ({ page }) => metric(page.labMetrics?.pageWeightBytes, T.metrics.pageWeight, 'bytes'),
    fix: (ctx) => {
      const metric = metricSentence(ctx, 'pageWeight');
      // The first images are likely above the fold (and logos, icons and SVGs are light): lazy-load the rest.
      const lazy = (ctx.page?.images ?? [])
        .slice(2)
        .filter((image) => !/logo|icon|sprite|\.svg(\?|$)/i.test(image.src))
        .slice(0, 4);
      return {
        summary: `Reduce the page weight (${metric.short}) ` + `below ${formatFixBytes(T.metrics.pageWeight.good)}`,
        steps: [
          metric.sentence,
          'Images are usually most of it: serve AVIF/WebP at the displayed size with srcset, and lazy-load ' +
            'images below the fold.',
          'Then look at JavaScript (remove unused libraries, split bundles), web fonts (subset, WOFF2, fewer ' +
            'weights) and autoplay videos (use a poster and load on click).',
          'Check the Network panel sorted by size to find the heaviest resources.',
        ],
        code:
          lazy.length > 0
            ? lazy.map((image) => `<img src="${escapeHtml(image.src)}" loading="lazy" decoding="async">`).join('\n')
            : undefined,
      };
    },
  }),
] as const;
