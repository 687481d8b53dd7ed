import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Long tasks kept per page: enough for TBT on any real page, bounded against a page that spins forever. */
export const MAX_LONG_TASKS = 2000;

let cached: string | null = null;

/**
 * The script every lab page runs before its own: web-vitals (IIFE build, kept local to the wrapper so the
 * page's globals are untouched) reporting every change into `window.__seoVitals`, plus a long-task observer
 * for TBT. Only the top frame measures; iframes get a no-op.
 */
export function labInitScript(): string {
  if (cached !== null) return cached;
  // The IIFE build is not an exported subpath, so locate it next to the package's resolvable entry point.
  const entry = createRequire(import.meta.url).resolve('web-vitals');
  const library = readFileSync(join(dirname(entry), 'web-vitals.iife.js'), 'utf8').replace(
    /^\/\/# sourceMappingURL=.*$/m,
    '',
  );
  cached =
    `(() => {
  if (window.top !== window) return;
  const store = {
    id: Math.random().toString(36).slice(2),
    lcp: null, cls: null, fcp: null, ttfb: null, inp: null,
    longTasks: [], lastLongTaskEnd: 0,
  };
  Object.defineProperty(window, '__seoVitals', { value: store, writable: false, enumerable: false, ` +
    `configurable: false });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (store.longTasks.length < ${MAX_LONG_TASKS}) store.longTasks.push([e.startTime, e.duration]);
        store.lastLongTaskEnd = Math.max(store.lastLongTaskEnd, e.startTime + e.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {}
${library}
  const all = { reportAllChanges: true };
  webVitals.onLCP((m) => { store.lcp = m.value; }, all);
  webVitals.onCLS((m) => { store.cls = m.value; }, all);
  webVitals.onFCP((m) => { store.fcp = m.value; }, all);
  webVitals.onTTFB((m) => { store.ttfb = m.value; }, all);
  // 16 ms is the lowest threshold Event Timing accepts: a quick synthetic interaction still counts.
  webVitals.onINP((m) => { store.inp = m.value; }, { reportAllChanges: true, durationThreshold: 16 });
})();
`;
  return cached;
}
