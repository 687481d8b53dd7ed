import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { LabMetrics } from '../seo/checks/index.js';
import { totalBlockingTime, type LabLongTask } from './lab-blocking-time.js';
import { labInitScript, MAX_LONG_TASKS } from './lab-init-script.js';
import { createLabRequestGate, parseLabUrl, type LabHostPolicy } from './lab-request-policy.js';
import { launchChromium } from '../platform/chromium.js';

export type LabDevice = 'desktop' | 'mobile';
export type LabMeasurement = LabMetrics & { device: LabDevice };

export interface LabMeterOptions {
  /** The Chromium binary (CHROMIUM_PATH; Debian's `chromium`). */
  chromiumPath: string;
  /** Whole budget per URL: navigation, settling, interaction and read-out. Default 30 s. */
  timeoutMs?: number;
  device?: LabDevice;
  /**
   * Which hosts other than the measured page's own may load. Default: none. Chromium resolves names itself,
   * so the caller's check (e.g. the safe-HTTP address policy) is what guards other hosts; the lab is meant
   * for the project's own site, whose host the caller has already vetted.
   */
  allowedHosts?: LabHostPolicy;
  /** Defaults to the browser's own; mobile defaults to a Lighthouse-style Android UA. */
  userAgent?: string;
  /** No network and no long task for this long after load counts as settled (TBT window end). Default 1000 ms. */
  quietWindowMs?: number;
  /** Requests past this many on one page are aborted (a page cannot make the lab load without end). Default 500. */
  maxRequestsPerPage?: number;
  /** Failures never throw out of `measure`; they are reported here (url is null for a browser launch failure). */
  onError?: (url: string | null, error: unknown) => void;
  /** Static host -> IP pins (SAFE_HTTP_RESOLVE), so the browser reaches the same addresses as the crawler. */
  hostPins?: ReadonlyMap<string, string>;
}

export interface LabMeterHandle {
  /**
   * Measures each URL, loading one page at a time (the next loads while the one before settles); a URL that fails
   * (or times out) has no entry. Assignable to the audit engine's LabMeter. An aborted signal ends it at once: the
   * pages being measured are closed (their requests with them), the URLs after them are skipped, and the
   * measurements made before are returned.
   */
  measure: (urls: string[], signal?: AbortSignal) => Promise<Map<string, LabMeasurement>>;
  close(): Promise<void>;
}

const DEVICES: Record<
  LabDevice,
  Pick<BrowserContextOptions, 'viewport' | 'screen' | 'deviceScaleFactor' | 'isMobile' | 'hasTouch'>
> = {
  desktop: {
    viewport: { width: 1350, height: 940 },
    screen: { width: 1350, height: 940 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
  },
  mobile: {
    viewport: { width: 412, height: 823 },
    screen: { width: 412, height: 823 },
    deviceScaleFactor: 2.625,
    isMobile: true,
    hasTouch: true,
  },
};

/** Time kept back from navigation and settling for the interaction, the flush and the read-out. */
const RESERVE_MS = 2500;
const MAX_SETTLE_MS = 5000;
const POLL_MS = 100;
const AFTER_INTERACTION_MS = 300;
const SIZES_WAIT_MS = 1000;
const CLOSE_WAIT_MS = 5000;
/** Pages open at once: one loading, the others settling. */
const MAX_SETTLING = 3;
/** Quiet after load (no request, no long task) after which the next page may start loading beside this one. */
const CALM_MS = 200;

/** Page-side snippets are strings: the project compiles without DOM types, and these run in the page. */
const READ_VITALS = `(() => {
  const s = window.__seoVitals;
  if (!s) return null;
  return {
    id: s.id, lcp: s.lcp, cls: s.cls, fcp: s.fcp, ttfb: s.ttfb, inp: s.inp,
    longTasks: Array.isArray(s.longTasks) ? s.longTasks.slice(0, ${MAX_LONG_TASKS}) : [],
    now: performance.now(),
  };
})()`;
const LONG_TASK_IDLE_MS = `(() => {
  const s = window.__seoVitals;
  return s && typeof s.lastLongTaskEnd === 'number' ? performance.now() - s.lastLongTaskEnd : 1e9;
})()`;
/** A viewport point over nothing interactive, so the synthetic click cannot follow a link or submit a form. */
const FIND_INERT_POINT = `(() => {
  const active = 'a,button,input,select,textarea,label,summary,details,option,iframe,video,audio,embed,object,' +
    '[onclick],[role=button],[role=link],[role=checkbox],[role=menuitem],[role=tab],[contenteditable],[tabindex]';
  for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    for (const fx of [0.5, 0.2, 0.8, 0.05, 0.95]) {
      const x = Math.round(innerWidth * fx), y = Math.round(innerHeight * fy);
      const el = document.elementFromPoint(x, y);
      if (!el || el.closest(active)) continue;
      if (getComputedStyle(el).cursor === 'pointer') continue;
      return [x, y];
    }
  }
  return null;
})()`;
/** web-vitals finalizes CLS and INP when the page turns hidden; a headless page never does, so pretend. */
const FLUSH_HIDDEN = `(() => {
  try {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
  } catch (e) {}
  document.dispatchEvent(new Event('visibilitychange'));
  return true;
})()`;

interface VitalsSnapshot {
  id: unknown;
  lcp: unknown;
  cls: unknown;
  fcp: unknown;
  ttfb: unknown;
  inp: unknown;
  longTasks: unknown[];
  now: unknown;
}

interface NetworkState {
  inflight: number;
  lastActivity: number;
  started: number;
  bytes: number;
  sizeTasks: Promise<void>[];
}

/**
 * Lab Core Web Vitals in a real Chromium (playwright-core): one lazily launched browser per meter, a fresh
 * context per URL, web-vitals injected before the page's scripts, a synthetic tap/click + key press for INP.
 * Every request is routed: only http(s) to the measured host, or hosts the caller's policy allows, ever load;
 * WebSockets, service workers, downloads and popups are refused. Numbers are unthrottled (no CPU/network
 * slowdown) and Speed Index is not computed.
 */
export function createLabMeter(options: LabMeterOptions): LabMeterHandle {
  const settings: MeterSettings = {
    timeoutMs: options.timeoutMs ?? 30_000,
    device: options.device ?? 'desktop',
    quietMs: options.quietWindowMs ?? 1000,
    maxRequests: options.maxRequestsPerPage ?? 500,
    allowedHosts: options.allowedHosts,
    userAgent: options.userAgent,
  };
  const report = (url: string | null, error: unknown) => {
    try {
      options.onError?.(url, error);
    } catch {
      // A failing reporter must not turn into a failed measurement.
    }
  };

  let browserPromise: Promise<Browser> | null = null;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  const getBrowser = (): Promise<Browser> => {
    if (!browserPromise) {
      const launching = launchChromium(options.chromiumPath, options.hostPins).then(async (browser) => {
        browser.on('disconnected', () => {
          if (browserPromise === launching) browserPromise = null;
        });
        await warmUp(browser).catch(() => undefined);
        return browser;
      });
      launching.catch(() => {
        if (browserPromise === launching) browserPromise = null;
      });
      browserPromise = launching;
    }
    return browserPromise;
  };

  const measureAll = async (
    urls: string[],
    results: Map<string, LabMeasurement>,
    signal?: AbortSignal,
  ): Promise<Map<string, LabMeasurement>> => {
    // Pages load one at a time, each alone in the browser (FCP, LCP and the load's long tasks are its own): the next
    // page starts once the one before has loaded and gone calm (CALM_MS without requests or long tasks), while that
    // one waits out the rest of its quiet window, which is only waiting. Loads and interactions take turns.
    const turns = createTurns();
    const settling = new Set<Promise<void>>();
    for (const url of urls) {
      if (closed || signal?.aborted) break;
      if (settling.size >= MAX_SETTLING) await Promise.race(settling);
      let browser: Browser;
      try {
        browser = await getBrowser();
      } catch (error) {
        report(null, error);
        break;
      }
      if (signal?.aborted) break;
      const calm = await turns.take();
      if (closed || signal?.aborted) {
        calm();
        break;
      }
      const measuring = measureOne(settings, browser, url, calm, turns, signal)
        .then(
          (measurement) => void (measurement && results.set(url, measurement)),
          (error: unknown) => report(url, error),
        )
        .finally(() => {
          calm();
          settling.delete(measuring);
        });
      settling.add(measuring);
    }
    await Promise.all(settling);
    return results;
  };

  const measure = (urls: string[], signal?: AbortSignal): Promise<Map<string, LabMeasurement>> => {
    // Calls queue behind each other: one page loads at a time per meter, so loads do not compete for CPU.
    const results = new Map<string, LabMeasurement>();
    // In the order asked, whichever page settled first.
    const inOrder = () => new Map(urls.flatMap((url) => (results.has(url) ? [[url, results.get(url)!]] : [])));
    const run = queue.then(() => measureAll(urls, results, signal)).then(inOrder);
    queue = run.catch(() => undefined);
    if (!signal) return run;
    // An abort answers at once, also while this call waits behind another caller's measurement.
    return new Promise((resolve, reject) => {
      const onAbort = () => resolve(inOrder());
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  };

  const close = async (): Promise<void> => {
    closed = true;
    const pending = browserPromise;
    browserPromise = null;
    const browser = await pending?.catch(() => null);
    await browser?.close().catch(() => undefined);
  };

  return { measure, close };
}

/** A meter's settings, defaults applied. */
interface MeterSettings {
  timeoutMs: number;
  device: LabDevice;
  quietMs: number;
  maxRequests: number;
  allowedHosts: LabHostPolicy | undefined;
  userAgent: string | undefined;
}

/**
 * Measures one URL in a context of its own, within the meter's budget. `calm` is called once the page has loaded and
 * gone quiet for a moment, or failed (at the latest as it ends); the interaction takes a turn of its own.
 */
async function measureOne(
  settings: MeterSettings,
  browser: Browser,
  rawUrl: string,
  calm: () => void,
  turns: Turns,
  signal?: AbortSignal,
): Promise<LabMeasurement | null> {
  const { timeoutMs, device } = settings;
  const target = parseLabUrl(rawUrl);
  if (!target) return null;
  const userAgent = settings.userAgent ?? (device === 'mobile' ? mobileUserAgent(browser.version()) : undefined);
  const context = await browser.newContext({
    ...DEVICES[device],
    userAgent,
    serviceWorkers: 'block',
    acceptDownloads: false,
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = Date.now() + timeoutMs;
  const work = runInContext(settings, context, rawUrl, target, deadline, calm, turns);
  work.catch(() => undefined);
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  // Closing the context (below) stops the page and every request it has in flight.
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([work, timedOut, aborted]);
    if (outcome === 'timeout') throw new Error(`lab measurement timed out after ${timeoutMs} ms`);
    return outcome === 'aborted' ? null : outcome;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await withTimeout(context.close(), CLOSE_WAIT_MS).catch(() => undefined);
  }
}

/** Loads the page, lets it settle, reads its vitals, interacts, and reads them again. */
async function runInContext(
  settings: MeterSettings,
  context: BrowserContext,
  rawUrl: string,
  target: URL,
  deadline: number,
  calm: () => void,
  turns: Turns,
): Promise<LabMeasurement | null> {
  const { device, quietMs } = settings;
  const net: NetworkState = { inflight: 0, lastActivity: Date.now(), started: 0, bytes: 0, sizeTasks: [] };
  const page = await openGatedPage(settings, context, target, net);

  const remaining = () => deadline - Date.now();
  const response = await page.goto(rawUrl, {
    waitUntil: 'domcontentloaded',
    timeout: Math.max(1, remaining() - RESERVE_MS),
  });
  if (!response || response.status() >= 400) return null;
  // A page whose load event never comes (a hanging subresource) is still measured once the budget runs low.
  await page
    .waitForLoadState('load', { timeout: Math.max(1, remaining() - RESERVE_MS - quietMs) })
    .catch(() => undefined);
  await settle(page, net, quietMs, Math.min(MAX_SETTLE_MS, Math.max(0, remaining() - RESERVE_MS)), calm);
  // A page that never went quiet (polling, a ticker) gives up its turn here at the latest: its interaction needs one.
  calm();

  const before = (await page.evaluate(READ_VITALS)) as VitalsSnapshot | null;
  if (!before) return null;
  const after = await interactAndRead(page, device, turns);
  const final = after && after.id === before.id ? after : before;

  await withTimeout(Promise.allSettled(net.sizeTasks), SIZES_WAIT_MS).catch(() => undefined);
  return toMeasurement(device, before, final, net.bytes);
}

/**
 * The context's page, with web-vitals injected before the page's scripts and every request routed through the gate
 * (the measured host, or hosts the caller's policy allows; at most maxRequests); WebSockets and popups are refused.
 */
async function openGatedPage(
  settings: MeterSettings,
  context: BrowserContext,
  target: URL,
  net: NetworkState,
): Promise<Page> {
  const gate = createLabRequestGate(target, settings.allowedHosts);
  await context.addInitScript({ content: labInitScript() });
  await context.route('**/*', async (route) => {
    const allowed = ++net.started <= settings.maxRequests && (await gate(route.request().url()).catch(() => false));
    await (allowed ? route.continue() : route.abort('blockedbyclient')).catch(() => undefined);
  });
  // Routing does not see WebSockets; a page load needs none.
  await context.routeWebSocket(/.*/, (ws) => ws.close());
  const page = await context.newPage();
  context.on('page', (other) => {
    if (other !== page) void other.close().catch(() => undefined);
  });
  trackNetwork(page, net);
  return page;
}

/** Taps or clicks and presses a key, then reads the vitals again (null if that failed). */
async function interactAndRead(page: Page, device: LabDevice, turns: Turns): Promise<VitalsSnapshot | null> {
  // The interaction runs alone in the browser too, as the loads do: its INP is this page's own.
  const alone = await turns.take();
  try {
    await interact(page, device).catch(() => undefined);
    await sleep(AFTER_INTERACTION_MS);
    // If the interaction navigated (a page's own click/key handler), the new document's numbers are not this page's.
    return await page
      .evaluate(FLUSH_HIDDEN)
      .then(() => sleep(50))
      .then(() => page.evaluate(READ_VITALS) as Promise<VitalsSnapshot | null>)
      .catch(() => null);
  } finally {
    alone();
  }
}

/**
 * One throwaway render so the first measured URL (the start URL, the one that matters most) does not pay the cold
 * start.
 */
async function warmUp(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('data:text/html,<p>warm-up</p>', { timeout: 5000 });
  } finally {
    await withTimeout(context.close(), CLOSE_WAIT_MS).catch(() => undefined);
  }
}

function trackNetwork(page: Page, net: NetworkState): void {
  page.on('request', () => {
    net.inflight++;
    net.lastActivity = Date.now();
  });
  const done = () => {
    net.inflight = Math.max(0, net.inflight - 1);
    net.lastActivity = Date.now();
  };
  page.on('requestfailed', done);
  page.on('requestfinished', (request) => {
    done();
    net.sizeTasks.push(
      request
        .sizes()
        .then(
          (s) => {
            net.bytes += Math.max(0, s.responseHeadersSize) + Math.max(0, s.responseBodySize);
          },
          async () => {
            const length = Number((await request.response())?.headers()['content-length']);
            if (Number.isFinite(length) && length > 0) net.bytes += length;
          },
        )
        .catch(() => undefined),
    );
  });
}

/** One holder at a time, in the order asked: `take` resolves to the holder's release (which may be called again). */
interface Turns {
  take(): Promise<() => void>;
}

function createTurns(): Turns {
  let last: Promise<void> = Promise.resolve();
  return {
    take() {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const granted = last.then(() => release);
      last = last.then(() => held);
      return granted;
    },
  };
}

/**
 * Waits until load has been followed by `quietMs` without network activity or long tasks, at most `capMs`; calls
 * `calm` once the first CALM_MS of such quiet have passed.
 */
async function settle(page: Page, net: NetworkState, quietMs: number, capMs: number, calm: () => void): Promise<void> {
  const loadedAt = Date.now();
  const until = loadedAt + capMs;
  const calmMs = Math.min(CALM_MS, quietMs);
  // Quiet counts when two polls in a row see it: a long task that has just ended, and the requests its script sent,
  // reach the observer and the request events a moment after the page answers the poll.
  let quietBefore = false;
  while (Date.now() < until) {
    const idle = Number(await page.evaluate(LONG_TASK_IDLE_MS));
    const now = Date.now();
    const quietFor = net.inflight === 0 ? Math.min(now - loadedAt, now - net.lastActivity, idle) : 0;
    const quiet = quietFor >= calmMs;
    if (quiet && quietBefore) {
      calm();
      if (quietFor >= quietMs) return;
    }
    quietBefore = quiet;
    await sleep(Math.min(POLL_MS, Math.max(0, until - Date.now())));
  }
}

async function interact(page: Page, device: LabDevice): Promise<void> {
  const point = (await page.evaluate(FIND_INERT_POINT)) as unknown;
  if (Array.isArray(point) && point.length === 2 && point.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    const [x, y] = point as [number, number];
    if (device === 'mobile') await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  }
  // A modifier key: an interaction for Event Timing that types nothing and scrolls nothing.
  await page.keyboard.press('Shift');
}

function toMeasurement(
  device: LabDevice,
  before: VitalsSnapshot,
  final: VitalsSnapshot,
  bytes: number,
): LabMeasurement {
  const m: LabMeasurement = { device };
  const ms = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
  const set = <K extends keyof LabMetrics>(key: K, value: LabMetrics[K]) => {
    if (value !== undefined) m[key] = value;
  };
  set('lcpMs', ms(final.lcp));
  set('fcpMs', ms(final.fcp));
  set('ttfbMs', ms(final.ttfb));
  set('inpMs', ms(final.inp));
  const cls =
    typeof final.cls === 'number' && Number.isFinite(final.cls) && final.cls >= 0
      ? Math.round(final.cls * 10_000) / 10_000
      : undefined;
  set('cls', cls);
  // TBT uses the pre-interaction snapshot: the window ends where the lab started clicking.
  const fcp = typeof before.fcp === 'number' ? before.fcp : typeof final.fcp === 'number' ? final.fcp : NaN;
  const end = Number(before.now);
  if (Number.isFinite(fcp) && Number.isFinite(end)) {
    const tasks = before.longTasks.filter(
      (t): t is LabLongTask =>
        Array.isArray(t) && t.length === 2 && typeof t[0] === 'number' && typeof t[1] === 'number',
    );
    set('tbtMs', Math.round(totalBlockingTime(tasks, fcp, end)));
  }
  if (bytes > 0) set('pageWeightBytes', bytes);
  return m;
}

/** Lighthouse's mobile UA shape, with this browser's major version. */
function mobileUserAgent(version: string): string {
  const major = version.split('.')[0] || '120';
  return (
    `Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) ` +
    `Chrome/${major}.0.0.0 Mobile Safari/537.36`
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
  ]).finally(() => clearTimeout(timer));
}
