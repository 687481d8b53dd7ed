import type { Browser, Page } from 'playwright-core';
import { totalBlockingTime, type LabLongTask } from '../../src/technical/lab-blocking-time.js';

/**
 * One cold page load in headless Chromium: a fresh context (empty cache), performance observers installed
 * before the page's own scripts, the page's "ready" condition awaited, then LCP, CLS, TBT, FCP and the bytes
 * on the wire read out. Page-side code is kept in strings: the project compiles without DOM types.
 */

/**
 * Observers for the vitals, buffered so that entries from before they were registered count too. Layout
 * shifts and the LCP element are described when they are reported, while their nodes are still attached.
 */
export const VITALS_INIT_SCRIPT =
  `(() => {
  if (window.top !== window) return;
  const store = { lcp: [], shifts: [], longTasks: [], fcp: null, events: [] };
  Object.defineProperty(window, '__benchVitals', { value: store, enumerable: false });
  const describe = (node) => {
    if (!node) return null;
    if (node.nodeType !== 1) return node.nodeName;
    let d = node.tagName.toLowerCase();
    if (node.id) d += '#' + node.id;
    const cls = typeof node.className === 'string' ? node.className.trim() : '';
    if (cls) d += '.' + cls.split(/\\s+/).join('.');
    const text = (node.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50);
    return text ? d + ' "' + text + '"' : d;
  };
  const observe = (type, onEntry, extra) => {
    try {
      new PerformanceObserver((list) => { for (const e of list.getEntries()) onEntry(e); }).observe({ ` +
  `type, buffered: true, ...extra });
    } catch (e) {}
  };
  observe('largest-contentful-paint', (e) => store.lcp.push({ at: e.startTime, size: e.size, element: ` +
  `describe(e.element), url: e.url || null }));
  // web-vitals' CLS: shifts within 500 ms of user input do not count.
  observe('layout-shift', (e) => {
    if (!e.hadRecentInput) store.shifts.push({ at: e.startTime, value: e.value, sources: (e.sources || ` +
  `[]).map((s) => describe(s.node)) });
  });
  observe('longtask', (e) => store.longTasks.push([e.startTime, e.duration]));
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') store.fcp = e.startTime; });
  observe('event', (e) => store.events.push({ name: e.name, at: e.startTime, duration: e.duration }), { ` +
  `durationThreshold: 16 });
})();`;

/**
 * Times "ready" in the page: the end of the main thread's work on the first animation frame in which the
 * target's probe (a JS expression, the same condition the Playwright locator waits for, minus visibility)
 * holds; a task queued from requestAnimationFrame runs after that frame's style, layout and paint. Playwright's
 * own wait confirms it but answers one or more round trips later, 100 ms or more on a busy machine.
 */
const readyProbeScript = (probe: string) => `(() => {
  if (window.top !== window) return;
  const probe = () => { try { return Boolean(${probe}); } catch (e) { return false; } };
  const poll = () => {
    if (probe()) setTimeout(() => { window.__benchVitals.readyAt = performance.now(); }, 0);
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
})();`;

/** Two frames and a short pause: entries of the last painted frame reach the observers before the read-out. */
export const SETTLE =
  'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))))';

const READ_VITALS =
  `(async () => {
  await ${SETTLE};
  const s = window.__benchVitals;
  if (!s || s.readyAt === undefined) return null;
  const readyAt = s.readyAt;
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  return {
    readyAt,
    fcp: s.fcp,
    lcp: s.lcp.length ? s.lcp[s.lcp.length - 1] : null,
    shifts: s.shifts,
    longTasks: s.longTasks,
    ttfb: nav ? nav.responseStart : null,
    documentEnd: nav ? nav.responseEnd : null,
    resourceTimingBytes: (nav ? nav.transferSize : 0) + resources.reduce((sum, r) => sum + r.transferSize, 0),
    resources: resources.length + (nav ? 1 : 0),
    apiCalls: resources.filter((r) => r.initiatorType === 'fetch' || r.initiatorType === 'xmlhttprequest').map((r) => ({
      path: new URL(r.name).pathname, startMs: r.startTime, waitMs: r.responseStart - r.requestStart, ` +
  `downloadMs: r.responseEnd - r.responseStart, bytes: r.transferSize,
    })),
    domElements: document.getElementsByTagName('*').length,
  };
})()`;

interface RawVitals {
  readyAt: number;
  fcp: number | null;
  lcp: { at: number; size: number; element: string | null; url: string | null } | null;
  shifts: { at: number; value: number; sources: (string | null)[] }[];
  longTasks: LabLongTask[];
  ttfb: number | null;
  documentEnd: number | null;
  resourceTimingBytes: number;
  resources: number;
  apiCalls: ApiCall[];
  domElements: number;
}

/** A fetch the page made (Resource Timing): when, how long the server took to answer, how big. */
export interface ApiCall {
  path: string;
  startMs: number;
  /** requestStart to responseStart: the server's time plus the loopback. */
  waitMs: number;
  downloadMs: number;
  bytes: number;
}

export interface PageLoad {
  /** performance.now() after the first frame in which the ready condition held (see readyProbeScript). */
  readyMs: number;
  lcpMs: number | null;
  lcpElement: string | null;
  /** Every shift without recent input until the read-out (no input happens before it): one session window. */
  cls: number;
  /** Layout shifts with their sources, for finding what moved. */
  shifts: RawVitals['shifts'];
  /** Lighthouse's sum over long tasks of their part beyond 50 ms, clipped to [FCP, ready]. */
  tbtMs: number;
  longTasks: number;
  longestTaskMs: number;
  fcpMs: number | null;
  ttfbMs: number | null;
  /** The document's last byte (navigation responseEnd). */
  documentEndMs: number | null;
  /** Sum of CDP Network.loadingFinished encodedDataLength (headers + body as received) until the read-out. */
  transferBytes: number;
  /** The same load's navigation + resource entries' transferSize, as a cross-check. */
  resourceTimingBytes: number;
  requests: number;
  /** The page's fetches finished by the read-out (session, GraphQL, organization list). */
  apiCalls: ApiCall[];
  domElements: number;
  consoleErrors: string[];
  /** Responses of 400 and above (a 429 would make every figure after it meaningless). */
  failedResponses: string[];
}

export interface PageTarget<T> {
  name: string;
  label: string;
  path: string;
  /** Adds the session cookie to the context: a signed-in page. */
  signedIn: boolean;
  /** Resolves when the page shows what it is for (throws if it does not within the timeout). */
  ready(page: Page): Promise<void>;
  /** The same condition as a page-side expression, for timing it to the frame (see readyProbeScript). */
  readyProbe: string;
  /** Measured after the read-out, in the same page (interactions must not disturb the load's figures). */
  afterReady?(page: Page): Promise<T>;
}

export interface LoadSettings {
  baseUrl: string;
  cookie: { name: string; value: string };
  viewport: { width: number; height: number };
  readyTimeoutMs: number;
}

export async function measureLoad<T>(
  browser: Browser,
  target: PageTarget<T>,
  settings: LoadSettings,
): Promise<{ load: PageLoad; extra?: T }> {
  const context = await browser.newContext({
    viewport: settings.viewport,
    deviceScaleFactor: 1,
    serviceWorkers: 'block',
  });
  try {
    await context.addInitScript({ content: VITALS_INIT_SCRIPT });
    await context.addInitScript({ content: readyProbeScript(target.readyProbe) });
    if (target.signedIn)
      await context.addCookies([{ name: settings.cookie.name, value: settings.cookie.value, url: settings.baseUrl }]);
    const page = await context.newPage();
    page.setDefaultTimeout(settings.readyTimeoutMs);
    const consoleErrors: string[] = [];
    const failedResponses: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failedResponses.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    const cdp = await context.newCDPSession(page);
    let transferBytes = 0;
    let requests = 0;
    cdp.on('Network.requestWillBeSent', () => void requests++);
    cdp.on('Network.loadingFinished', (e) => {
      transferBytes += e.encodedDataLength;
    });
    await cdp.send('Network.enable');

    await page.goto(`${settings.baseUrl}${target.path}`, { waitUntil: 'commit' });
    await target.ready(page);
    const raw = (await page.evaluate(READ_VITALS)) as RawVitals | null;
    if (!raw)
      throw new Error(
        `${target.name}: the vitals observers did not run, or the ready probe never held although the page is ready`,
      );
    const load: PageLoad = {
      readyMs: raw.readyAt,
      lcpMs: raw.lcp?.at ?? null,
      lcpElement: raw.lcp?.element ?? null,
      cls: raw.shifts.reduce((sum, s) => sum + s.value, 0),
      shifts: raw.shifts,
      tbtMs: raw.fcp === null ? 0 : totalBlockingTime(raw.longTasks, raw.fcp, raw.readyAt),
      longTasks: raw.longTasks.length,
      longestTaskMs: Math.max(0, ...raw.longTasks.map(([, d]) => d)),
      fcpMs: raw.fcp,
      ttfbMs: raw.ttfb,
      documentEndMs: raw.documentEnd,
      transferBytes,
      resourceTimingBytes: raw.resourceTimingBytes,
      requests,
      apiCalls: raw.apiCalls,
      domElements: raw.domElements,
      consoleErrors,
      failedResponses,
    };
    const extra = target.afterReady ? await target.afterReady(page) : undefined;
    return { load, extra };
  } finally {
    await context.close();
  }
}
