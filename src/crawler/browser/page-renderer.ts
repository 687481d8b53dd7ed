import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../../platform/chromium.js';
import { RenderJob } from './render-job.js';
import { routeRequest, type RoutingSettings } from './render-routing.js';
import {
  DEFAULT_BLOCKED_RESOURCE_TYPES,
  RENDER_DEFAULTS,
  type PageRenderer,
  type PageRendererOptions,
  type RenderInput,
  type RenderOutput,
} from './render.types.js';

/** Kept back from the budget for the snapshot of the DOM (a quarter of a budget under 4 s). */
const SNAPSHOT_RESERVE_MS = 1_000;
const CLOSE_WAIT_MS = 5_000;
const POLL_MS = 25;
/** Playwright's navigation timeout and the job's deadline are measured apart: they may differ by this much. */
const TIMER_SLACK_MS = 100;
/** Messages Chromium logs itself for a failed request: the request is recorded as failed, not as a page error. */
const NETWORK_LOG = /^Failed to load resource\b/;

/** One page of the pool: its own browser context, reused render after render, replaced after a failure. */
interface Slot {
  context: BrowserContext;
  page: Page;
  /** The page's own DevTools session: the snapshot is serialized by the browser (DOM.getOuterHTML). */
  cdp: CDPSession;
  job: RenderJob | null;
  document: RenderInput | null;
  renders: number;
}

class RenderAborted extends Error {}

/**
 * Headless Chromium for the crawler's browser mode: one browser per renderer, launched on the first render with
 * no network of its own (offline launch: a closed proxy, no name resolution), and a pool of pages. Every request a
 * page makes is answered by routing through the safe HTTP client (render-routing.ts); WebSockets, service workers,
 * downloads, popups and dialogs are refused. A render navigates to the crawler's URL, answered with the document
 * the crawler received, waits for the load event and a short network-idle window (within the time budget) and
 * serializes the DOM of the main frame.
 */
export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  const size = Math.max(1, options.pages ?? RENDER_DEFAULTS.pages);
  const timeoutMs = options.timeoutMs ?? RENDER_DEFAULTS.timeoutMs;
  const idleMs = options.idleMs ?? RENDER_DEFAULTS.idleMs;
  const rendersPerContext = options.rendersPerContext ?? RENDER_DEFAULTS.rendersPerContext;
  const routing: RoutingSettings = {
    client: options.client,
    blockedTypes: new Set(options.blockedResourceTypes ?? DEFAULT_BLOCKED_RESOURCE_TYPES),
    maxRequests: options.maxRequests ?? RENDER_DEFAULTS.maxRequests,
    maxBytes: options.maxBytes ?? RENDER_DEFAULTS.maxBytes,
  };
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing reporter changes nothing.
    }
  };

  let browserPromise: Promise<Browser> | null = null;
  let closed = false;
  const idle: Slot[] = [];
  let busy = 0;
  const waiters: (() => void)[] = [];

  const getBrowser = (): Promise<Browser> => {
    if (!browserPromise) {
      const launching = launchChromium(options.chromiumPath, undefined, {
        offline: true,
        // A new document in the same process, not a new frame host each time: ~0.7x the browser's CPU per page.
        disableFeatures: ['RenderDocument'],
      }).then((browser) => {
        browser.on('disconnected', () => {
          if (browserPromise === launching) browserPromise = null;
          // Contexts of a gone browser are dead: idle slots go with it.
          idle.length = 0;
        });
        return browser;
      });
      launching.catch((error: unknown) => {
        report(error);
        if (browserPromise === launching) browserPromise = null;
      });
      browserPromise = launching;
    }
    return browserPromise;
  };

  const openSlot = async (): Promise<Slot> => openSlotIn(await getBrowser(), options.userAgent, routing, idleMs);

  const acquire = async (signal?: AbortSignal): Promise<Slot> => {
    while (busy >= size && !closed) {
      if (signal?.aborted) throw new RenderAborted('the crawl was stopped');
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    if (closed) throw new Error('the renderer is closed');
    busy++;
    try {
      return idle.pop() ?? (await openSlot());
    } catch (error) {
      release(null);
      throw error;
    }
  };

  const release = (slot: Slot | null, keep = false) => {
    busy--;
    if (slot && keep && !closed && slot.renders < rendersPerContext) idle.push(slot);
    else if (slot) void withTimeout(slot.context.close(), CLOSE_WAIT_MS).catch(() => undefined);
    waiters.shift()?.();
  };

  const render = async (input: RenderInput): Promise<RenderOutput> => {
    if (closed) throw new Error('the renderer is closed');
    const slot = await acquire(input.signal);
    // Navigation and settling end `reserve` before the budget, leaving the rest for the snapshot.
    const reserve = Math.min(SNAPSHOT_RESERVE_MS, timeoutMs / 4);
    const job = new RenderJob(input.url, timeoutMs - reserve, input);
    slot.job = job;
    slot.document = input;
    slot.renders++;
    let keep = false;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const work = renderIn(slot, job, idleMs);
      work.catch(() => undefined);
      // The budget bounds the render even when the page's scripts never yield (the snapshot then never answers).
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the page did not render within ${timeoutMs / 1000} s (its scripts never yielded)`)),
          Math.max(0, job.remainingMs() + reserve),
        );
      });
      const stopped = new Promise<never>((_, reject) => {
        onAbort = () => reject(new RenderAborted('the crawl was stopped'));
        if (input.signal?.aborted) onAbort();
        else input.signal?.addEventListener('abort', onAbort, { once: true });
      });
      const output = await Promise.race([work, expired, stopped]);
      keep = true;
      return output;
    } finally {
      clearTimeout(timer);
      if (onAbort) input.signal?.removeEventListener('abort', onAbort);
      job.stop.abort();
      slot.job = null;
      slot.document = null;
      // A reused page starts the next render from a blank document, without this site's cookies or storage.
      if (keep) keep = await reset(slot);
      release(slot, keep);
    }
  };

  const close = async (): Promise<void> => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
    const pending = browserPromise;
    browserPromise = null;
    idle.length = 0;
    const browser = await pending?.catch(() => null);
    await browser?.close().catch(() => undefined);
  };

  return { render, close };
}

/**
 * A fresh context and page of `browser` wired for rendering: every request routed through the safe HTTP client,
 * WebSockets closed and recorded, popups closed, dialogs dismissed, console errors kept for the render's job.
 */
async function openSlotIn(
  browser: Browser,
  userAgent: string | undefined,
  routing: RoutingSettings,
  idleMs: number,
): Promise<Slot> {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    acceptDownloads: false,
    ...(userAgent ? { userAgent } : {}),
  });
  try {
    const slot: Slot = {
      context,
      page: null as unknown as Page,
      cdp: null as unknown as CDPSession,
      job: null,
      document: null,
      renders: 0,
    };
    await context.route('**/*', (route, request) =>
      routeRequest(route, request, slot.page, slot.job, slot.document, routing),
    );
    // Routing does not see WebSockets: each is closed before it connects, and recorded.
    await context.routeWebSocket(/.*/, (ws) => {
      slot.job?.failed(ws.url(), 'WebSockets are not opened while rendering');
      void ws.close().catch(() => undefined);
    });
    await context.addInitScript({ content: PAGE_ACTIVITY(idleMs) });
    slot.page = await context.newPage();
    slot.cdp = await context.newCDPSession(slot.page);
    context.on('page', (other) => {
      if (other !== slot.page) void other.close().catch(() => undefined);
    });
    const page = slot.page;
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (!NETWORK_LOG.test(text)) slot.job?.consoleError(text);
    });
    page.on('pageerror', (error) => slot.job?.consoleError(error.message || String(error)));
    return slot;
  } catch (error) {
    await withTimeout(context.close(), CLOSE_WAIT_MS).catch(() => undefined);
    throw error;
  }
}

/** Navigation, settling and snapshot of one render; resolves with the partial DOM when the budget runs out. */
async function renderIn(slot: Slot, job: RenderJob, idleMs: number): Promise<RenderOutput> {
  const page = slot.page;
  const budget = () => Math.max(1, job.remainingMs());
  let partial = false;
  try {
    await page.goto(job.url, { waitUntil: 'load', timeout: budget() });
  } catch (error) {
    // Load never came within the budget: the DOM as it is now is what a search engine's renderer would index.
    if (job.remainingMs() > TIMER_SLACK_MS || !/Timeout/i.test(String(error))) throw navigationError(error);
    partial = true;
  }
  if (!partial) {
    // The quiet window starts at load at the earliest: the requests the page made while it was parsed may reach the
    // routing only after the load event has (measured: a load that came late, 3 of 6 pages snapshotted before
    // their data was asked for), and a window counted from the render's start would already be over.
    job.lastActivity = Math.max(job.lastActivity, Date.now());
    partial = !(await settleRender(page, job, idleMs));
  }
  if (partial) job.failPending(`still loading when the render budget ran out`);
  const html = await serializeDocument(slot.cdp);
  return job.output(html, partial);
}

/**
 * The main frame's document as page.content() returns it (the doctype and the root element, each serialized by
 * Chromium's own serializer), read through the page's DevTools session: page.content() runs in Playwright's utility
 * world, whose script each new document compiles again (measured: ~100 ms a snapshot against ~20 ms, about 2x the
 * browser's CPU per page). No script of the page runs: `document` cannot be replaced (it is unforgeable), and the
 * nodes are found by DOM.describeNode, not by getters a page could redefine. Proven equal to page.content() by
 * test/integration/render-snapshot.test.ts.
 */
export async function serializeDocument(cdp: CDPSession): Promise<string> {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'document', objectGroup: SNAPSHOT_GROUP });
  try {
    if (!result.objectId) throw new Error('the page has no document to read');
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId, depth: 1 });
    // The doctype (10) and the root element (1); comments and processing instructions around them are left out.
    const parts = (node.children ?? []).filter((child) => child.nodeType === 10 || child.nodeType === 1);
    const html = await Promise.all(
      parts.map(async (part) => (await cdp.send('DOM.getOuterHTML', { backendNodeId: part.backendNodeId })).outerHTML),
    );
    return html.join('');
  } finally {
    void cdp.send('Runtime.releaseObjectGroup', { objectGroup: SNAPSHOT_GROUP }).catch(() => undefined);
  }
}
const SNAPSHOT_GROUP = 'seo-snapshot';

/**
 * What the page itself knows is still to come, kept by an init script: fetch and XHR calls not yet answered and
 * response bodies not yet read (a call reaches the routing, and `job.inflight`, some time after the script made it: on
 * a busy machine more than the quiet window after load, seen: 3 of 36 data calls never asked for), timers and
 * intervals due within the quiet window, and animation frames asked for. `__seoRenderState(ms)` reports them, and
 * whether the main thread went idle (requestIdleCallback) within `ms`: an idle callback runs only once no task is
 * queued, so a script still working in chunks (a framework's scheduler) is not idle.
 */
const PAGE_ACTIVITY = (shortTimerMs: number) => `(() => {
  let pending = 0;
  const done = () => { pending--; };
  const count = (call) => { Promise.resolve(call).then(done, done); return call; };
  const fetch = window.fetch;
  if (typeof fetch === 'function')
    window.fetch = function (...args) {
      pending++;
      let call;
      try { call = fetch.apply(this, args); } catch (e) { done(); throw e; }
      return count(call);
    };
  const body = window.Response && Response.prototype;
  if (body)
    for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
      const read = body[name];
      if (typeof read !== 'function') continue;
      body[name] = function (...args) {
        pending++;
        let reading;
        try { reading = read.apply(this, args); } catch (e) { done(); throw e; }
        return count(reading);
      };
    }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    pending++;
    this.addEventListener('loadend', done, { once: true });
    try { return send.apply(this, args); } catch (e) { this.removeEventListener('loadend', done); done(); throw e; }
  };
  const timers = new Set();
  const setT = window.setTimeout, clearT = window.clearTimeout;
  const setI = window.setInterval, clearI = window.clearInterval;
  const short = (delay) => !(Number(delay) > ${shortTimerMs});
  window.setTimeout = function (handler, delay, ...rest) {
    if (typeof handler !== 'function' || !short(delay)) return setT.call(this, handler, delay, ...rest);
    const id = setT.call(this, function (...a) { timers.delete(id); return handler.apply(this, a); }, delay, ...rest);
    timers.add(id);
    return id;
  };
  window.setInterval = function (handler, delay, ...rest) {
    const id = setI.call(this, handler, delay, ...rest);
    if (short(delay)) timers.add(id);
    return id;
  };
  window.clearTimeout = function (id) { timers.delete(id); return clearT.call(this, id); };
  window.clearInterval = function (id) { timers.delete(id); return clearI.call(this, id); };
  const frames = new Set();
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  if (typeof raf === 'function') {
    window.requestAnimationFrame = function (callback) {
      if (typeof callback !== 'function') return raf.call(this, callback);
      const id = raf.call(this, function (t) { frames.delete(id); return callback(t); });
      frames.add(id);
      return id;
    };
    window.cancelAnimationFrame = function (id) { frames.delete(id); return caf.call(this, id); };
  }
  const ric = window.requestIdleCallback;
  Object.defineProperty(window, '__seoRenderState', {
    value: (ms) => new Promise((resolve) => {
      let answered = false;
      const answer = (idle) => {
        if (answered) return;
        answered = true;
        resolve({ pending, timers: timers.size, frames: frames.size, idle });
      };
      setT.call(window, () => answer(false), ms);
      if (typeof ric === 'function') ric.call(window, () => answer(true));
    }),
  });
})()`;

/** What the page reports (PAGE_ACTIVITY's `__seoRenderState`). */
interface PageState {
  pending: number;
  timers: number;
  frames: number;
  idle: boolean;
}

/**
 * Quiet (no request in flight at the routing) after which the page is asked whether it is done: it is when nothing
 * it counts is pending and its main thread went idle. Requests the page does not count (a script or import() it
 * added) reach the routing well within this (the idle callback itself waits for a frame at the least).
 */
const SHORT_QUIET_MS = 50;
/** How long the page is given to go idle when asked. */
const IDLE_PROBE_MS = 50;
/**
 * A page whose main thread is still busy (a scheduler working in chunks, each posting the next) is not settled by
 * the quiet window alone: it is given up to this many quiet windows to go idle. On a loaded machine 40 chunks of 4 ms
 * took longer than one 200 ms window (seen in CI: the shell's title snapshotted); a page busy for ever costs 1 s.
 */
const BUSY_QUIET_FACTOR = 5;
const quietFor = (since: number): number => Date.now() - since;

/**
 * Settles a loaded page: how it was found done, or false when the budget ran out first. Done is either of:
 * - quiet for SHORT_QUIET_MS, and the page reports nothing pending (no call, body, short timer or frame) with its main
 *   thread idle, and no request reached the routing meanwhile;
 * - quiet for the whole `idleMs` window, no call the page counts on its way and its main thread idle (what it does
 *   not report, such as an endless interval or animation, cannot hold the snapshot longer than this); a main thread
 *   that stays busy holds it for BUSY_QUIET_FACTOR windows at most.
 * A page that cannot answer (a script that never yields) is left to the budget.
 */
export async function settleRender(
  page: Pick<Page, 'evaluate'>,
  job: RenderJob,
  idleMs: number,
): Promise<'idle' | 'quiet' | false> {
  const shortQuietMs = Math.min(SHORT_QUIET_MS, idleMs);
  // The whole window is over; a page that said its main thread is busy is given up to BUSY_QUIET_FACTOR windows.
  const windowOver = (quiet: number, state: PageState | null) =>
    quiet >= idleMs && (!state || state.idle || quiet >= idleMs * BUSY_QUIET_FACTOR);
  for (;;) {
    const quietSince = job.lastActivity;
    const quiet = job.inflightCount === 0 ? Date.now() - quietSince : 0;
    if (quiet >= shortQuietMs) {
      const state = await withTimeout(
        page.evaluate(`window.__seoRenderState(${IDLE_PROBE_MS})`) as Promise<PageState>,
        job.remainingMs(),
        'state',
      ).catch(() => null);
      const stillQuiet = job.inflightCount === 0 && job.lastActivity === quietSince;
      if (state && state.pending > 0) {
        // Calls the page made are still on their way to the routing: the window starts again once they are answered.
        job.lastActivity = Date.now();
      } else if (stillQuiet && windowOver(quietFor(quietSince), state)) {
        return 'quiet';
      } else if (stillQuiet && state?.idle && state.timers === 0 && state.frames === 0) {
        return 'idle';
      }
    }
    const remaining = job.remainingMs();
    if (remaining <= 0) return false;
    const sinceActivity = Date.now() - job.lastActivity;
    const wait = job.inflightCount === 0 && sinceActivity < shortQuietMs ? shortQuietMs - sinceActivity : POLL_MS;
    await sleep(Math.min(remaining, wait));
  }
}

function navigationError(error: unknown): Error {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new Error(`the page could not be loaded in the browser: ${message}`);
}

/**
 * Clears what the page stored (cookies, local and session storage) for the next render; false when that failed (the
 * slot is then replaced). The document stays until the next navigation replaces it: a detour through about:blank
 * would cost a new renderer process per page (measured: ~1.8x the browser's CPU per page). Requests it makes
 * meanwhile are refused (no job), and those before the next document is served too (render-routing.ts).
 */
async function reset(slot: Slot): Promise<boolean> {
  try {
    await withTimeout(
      Promise.all([
        slot.page.evaluate('(() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} })()'),
        slot.context.clearCookies(),
      ]),
      3_000,
      'reset',
    );
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withTimeout<T>(promise: Promise<T>, ms: number, what = 'close'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
