import { CHECK_THRESHOLDS as T, type BandedCheckCode, type CheckCode } from '../checks/index.js';
import { numberOf, fieldOf } from './fix-evidence.js';
import { HYGIENE_PERFORMANCE_FIX_RULES } from './hygiene-fix-rules.js';
import {
  formatBytes,
  formatCount,
  formatMs,
  inlineList,
  pageName,
  plural,
  type FixRule,
  type FixRuleContext,
} from './fix-rule-context.js';
import { escapeHtml, shorten } from './markup-text.js';
import { pathOnly, shellQuote } from './server-config-snippets.js';

type PerformanceCode = Extract<CheckCode, `PERF_${string}`>;

const METRIC_FIELDS: Record<BandedCheckCode, { field: string; label: string; format: (value: number) => string }> = {
  PERF_LCP: { field: 'lcpMs', label: 'Largest Contentful Paint', format: formatMs },
  PERF_CLS: { field: 'cls', label: 'Cumulative Layout Shift', format: (value) => value.toFixed(2) },
  PERF_INP: { field: 'inpMs', label: 'Interaction to Next Paint', format: formatMs },
  PERF_TBT: { field: 'tbtMs', label: 'Total Blocking Time', format: formatMs },
  PERF_FCP: { field: 'fcpMs', label: 'First Contentful Paint', format: formatMs },
  PERF_TTFB: { field: 'ttfbMs', label: 'Time to First Byte', format: formatMs },
  PERF_DOM_SIZE: { field: 'elements', label: 'DOM size', format: (value) => `${formatCount(value)} elements` },
  PERF_PAGE_WEIGHT: { field: 'bytes', label: 'Page weight', format: formatBytes },
};

/** "LCP is 3.4 s (good: at most 2.5 s; poor: over 4.0 s)" from the evidence, or the thresholds alone. */
function metricSentence(
  ctx: FixRuleContext,
  code: BandedCheckCode,
): { sentence: string; value: number | null; short: string } {
  const { field, label, format } = METRIC_FIELDS[code];
  const band = T.metrics[code];
  const value = ctx.evidence.number(field);
  const bands = `good: at most ${format(band.good)}; poor: over ${format(band.poor)}`;
  const sentence =
    value !== null
      ? `${label} on ${pageName(ctx)} is ${format(value)} (${bands}).`
      : `${label} on ${pageName(ctx)} is above ${format(band.good)} (${bands}).`;
  return { sentence, value, short: value !== null ? format(value) : `over ${format(band.good)}` };
}

/** The most likely LCP image: og:image when the page shows it, else the first content image. */
function heroImage(ctx: FixRuleContext): string | null {
  const images = ctx.page?.images ?? [];
  const first = images.find(
    (image) => image.url !== null && !/\.svg(\?|$)/i.test(image.url) && !/logo|icon|sprite/i.test(image.src),
  );
  return first?.src ?? null;
}

/** Origins other than the page's that the page loads images from: candidates for preconnect. */
function thirdPartyOrigins(ctx: FixRuleContext): string[] {
  const origins = new Set<string>();
  for (const image of ctx.page?.images ?? []) {
    if (!image.url) continue;
    try {
      const origin = new URL(image.url).origin;
      if (origin !== ctx.origin) origins.add(origin);
    } catch {
      // unresolvable image URL: nothing to preconnect to
    }
  }
  return [...origins].slice(0, 3);
}

function extensionOf(url: string): string | null {
  const match = /\.([a-z0-9]{2,5})$/i.exec(pathOnly(url));
  return match ? match[1].toLowerCase() : null;
}

export const PERFORMANCE_FIX_RULES: Record<PerformanceCode, FixRule> = {
  PERF_LCP: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_LCP');
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
  PERF_CLS: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_CLS');
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
  PERF_INP: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_INP');
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
  PERF_TBT: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_TBT');
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
  PERF_FCP: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_FCP');
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
  PERF_TTFB: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_TTFB');
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
  PERF_DOM_SIZE: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_DOM_SIZE');
    return {
      summary: `Shrink the DOM (${metric.short}; target under ${formatCount(T.metrics.PERF_DOM_SIZE.good)})`,
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
  PERF_PAGE_WEIGHT: (ctx) => {
    const metric = metricSentence(ctx, 'PERF_PAGE_WEIGHT');
    // The first images are likely above the fold (and logos, icons and SVGs are light): lazy-load the rest.
    const lazy = (ctx.page?.images ?? [])
      .slice(2)
      .filter((image) => !/logo|icon|sprite|\.svg(\?|$)/i.test(image.src))
      .slice(0, 4);
    return {
      summary: `Reduce the page weight (${metric.short}) below ${formatBytes(T.metrics.PERF_PAGE_WEIGHT.good)}`,
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
  PERF_IMAGE_TOO_LARGE: (ctx) => {
    const images = ctx.evidence
      .records('images', 5)
      .map((entry) => ({ url: fieldOf(entry, 'url') ?? '', bytes: numberOf(entry, 'bytes') }))
      .filter((image) => image.url);
    const count = ctx.evidence.number('count') ?? images.length;
    const first = images[0]?.url;
    const file = first ? pathOnly(first).split('/').pop() || 'image' : 'image';
    const base = file.replace(/\.[a-z0-9]+$/i, '') || 'image';
    return {
      summary: `Compress ${plural(count || images.length, 'image')} over ${formatBytes(T.maxImageBytes)}`,
      steps: [
        ...images.map(
          (image) =>
            `${shorten(image.url, 140)} is ${image.bytes !== null ? formatBytes(image.bytes) : 'over 200 KiB'}.`,
        ),
        'Resize each image to the largest size it is displayed at (2x for high-density screens) and ' +
          're-encode it as AVIF or WebP (quality 60–80); the commands below do it with libwebp and libavif.',
        'Serve responsive sizes with srcset/sizes, or let an image CDN do the conversion automatically.',
      ],
      code: first
        ? `curl -sS -o ${shellQuote(file)} ${shellQuote(first)}\ncwebp -q 75 -resize 1600 ` +
          `0 ${shellQuote(file)} -o ${shellQuote(`${base}.webp`)}\navifenc --min 20 --max ` +
          `40 ${shellQuote(file)} ${shellQuote(`${base}.avif`)}`
        : undefined,
    };
  },
  PERF_IMAGE_NO_DIMENSIONS: (ctx) => {
    const images = ctx.evidence.strings('images', 5);
    const refs =
      images.length > 0 ? images : (ctx.page?.images ?? []).slice(0, 5).map((image) => image.url ?? image.src);
    const count = ctx.evidence.number('count') ?? refs.length;
    return {
      summary: `Add width and height to ${plural(count || refs.length, 'image')}`,
      steps: [
        `${
          refs.length > 0
            ? `These images lack width/height: ${inlineList(refs, count)}.`
            : 'Some images lack width and height attributes.'
        } Without them the browser cannot reserve space and the layout jumps when they load (CLS).`,
        "Set width and height to the image's intrinsic pixel size (the command below prints it); CSS can " +
          'still scale it with max-width: 100%; height: auto.',
      ],
      code:
        refs
          .map(
            (ref) =>
              `curl -sS ${shellQuote(ref)} | identify -format '${escapeShellFormat(ref)} width=%w height=%h\\n' -`,
          )
          .join('\n') || undefined,
    };
  },
  PERF_NO_COMPRESSION: (ctx) => {
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
  PERF_RENDER_BLOCKING: (ctx) => {
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
  PERF_NO_CACHE_HEADERS: (ctx) => {
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
  // Images, security headers, redirects, soft 404s, URLs and link texts (hygiene-fix-rules.ts)
  ...HYGIENE_PERFORMANCE_FIX_RULES,
};

/** identify's -format treats % as a directive: a URL inside the label must escape it. */
function escapeShellFormat(ref: string): string {
  return shorten(pathOnly(ref).split('/').pop() || ref, 60)
    .replace(/%/g, '%%')
    .replace(/'/g, '');
}
