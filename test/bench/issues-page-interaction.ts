import type { Page } from 'playwright-core';
import { SETTLE } from './page-vitals.js';

/**
 * Interactivity of the audit issues page with 2,000 issues, in the page that was just measured: search, open
 * an issue, scroll to the last one. Times are taken in the page, from the event's own timestamp to the DOM
 * change (a MutationObserver) and to the frame after it (requestAnimationFrame, then a task: the update has
 * been painted), so no round trip between this process and the browser is counted.
 */

export interface TimedUpdate {
  /** Input or click event to the DOM showing the change. */
  toUpdateMs: number;
  /** Input or click event to the frame after the change. */
  toPaintMs: number;
}

export interface SearchUpdate extends TimedUpdate {
  term: string;
  shown: number;
  expected: number;
  /** Longest Event Timing entry (≥ 16 ms) of the input's events: their processing up to the next paint, INP-style. */
  eventMs: number | null;
}

export interface IssuesInteraction {
  /** Rows (category headings + issues) in the DOM after the page is ready, and the issues among them. */
  rowsInDom: number;
  issueRowsInDom: number;
  /** Rows the list has (aria-setsize): 2,000 issues + one heading per category. */
  totalRows: number;
  search: SearchUpdate;
  clear: SearchUpdate;
  toggle: TimedUpdate & { title: string; toOccurrencesMs: number; occurrences: number; eventMs: number | null };
  scroll: {
    reached: boolean;
    steps: number;
    ms: number;
    lastTitle: string | null;
    rowsInDom: number;
    issueRowsInDom: number;
  };
}

const LIST = `document.querySelector('[role="list"][aria-label="Issues, most costly first"]')`;

const COUNT_ROWS = `(() => {
  const list = ${LIST};
  const rows = list ? list.querySelectorAll('[role="listitem"]') : [];
  return { rows: rows.length, issues: list ? list.querySelectorAll('button[aria-expanded]').length : 0,
    setsize: rows.length ? Number(rows[0].getAttribute('aria-setsize')) : 0 };
})()`;

/** Watches the "N issues shown of 2,000" status for its next change, timed from the next input event. */
const ARM_STATUS_WATCH = `(() => {
  const status = [...document.querySelectorAll('[role="status"]')].find((e) => / shown of /.test(e.textContent || ''));
  if (!status) return null;
  const before = status.textContent;
  const w = { startAt: null, changedAt: null, paintedAt: null, text: null };
  const onInput = (e) => { if (w.startAt === null) w.startAt = e.timeStamp; };
  document.addEventListener('input', onInput, true);
  w.done = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (status.textContent === before) return;
      obs.disconnect();
      document.removeEventListener('input', onInput, true);
      w.changedAt = performance.now();
      w.text = status.textContent;
      requestAnimationFrame(() => setTimeout(() => { w.paintedAt = performance.now(); resolve(); }, 0));
    });
    obs.observe(status, { childList: true, subtree: true, characterData: true });
  });
  window.__benchWatch = w;
  return before;
})()`;

/** Watches the first closed issue: its panel appearing, then its first affected page URL. */
const ARM_TOGGLE_WATCH =
  `(() => {
  const list = ${LIST};
  const button = list && list.querySelector('button[aria-expanded="false"]');
  if (!button) return null;
  const panelId = button.getAttribute('aria-controls');
  const w = { startAt: null, changedAt: null, paintedAt: null, occurrencesAt: null, occurrences: 0 };
  button.addEventListener('click', (e) => { if (w.startAt === null) w.startAt = e.timeStamp; }, { ` +
  `capture: true, once: true });
  w.done = new Promise((resolve) => {
    const finish = () => { if (w.paintedAt !== null && w.occurrencesAt !== null) { obs.disconnect(); resolve(); } };
    const obs = new MutationObserver(() => {
      const panel = document.getElementById(panelId);
      if (!panel) return;
      if (w.changedAt === null) {
        w.changedAt = performance.now();
        requestAnimationFrame(() => setTimeout(() => { w.paintedAt = performance.now(); finish(); }, 0));
      }
      const urls = [...panel.querySelectorAll('li')].filter((li) => /https?:\\/\\//.test(li.textContent || ''));
      if (urls.length && w.occurrencesAt === null) { w.occurrencesAt = performance.now(); w.occurrences = ` +
  `urls.length; finish(); }
    });
    obs.observe(list, { childList: true, subtree: true, characterData: true });
  });
  window.__benchWatch = w;
  return button.textContent;
})()`;

const AWAIT_WATCH = (timeoutMs: number) =>
  `(async () => {
  const w = window.__benchWatch;
  await Promise.race([w.done, new Promise((r) => setTimeout(r, ${timeoutMs}))]);
  // Event Timing entries are reported once their frame is presented: give them time to arrive.
  await ${SETTLE};
  const events = w.startAt === null ? [] : window.__benchVitals.events.filter((e) => e.at >= w.startAt - ` +
  `1 && e.at <= (w.paintedAt ?? performance.now()));
  return { startAt: w.startAt, changedAt: w.changedAt, paintedAt: w.paintedAt, text: w.text ?? null,
    occurrencesAt: w.occurrencesAt ?? null, occurrences: w.occurrences ?? 0,
    eventMs: events.length ? Math.max(...events.map((e) => e.duration)) : null };
})()`;

/**
 * Scrolls the window to the bottom until the list's last row is rendered and on screen (the virtualizer measures as it
 * goes).
 */
const SCROLL_TO_LAST =
  `(async () => {
  const list = ${LIST};
  const setsize = Number(list.querySelector('[role="listitem"]').getAttribute('aria-setsize'));
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const started = performance.now();
  const counts = () => ({ rowsInDom: list.querySelectorAll('[role="listitem"]').length, issueRowsInDom: ` +
  `list.querySelectorAll('button[aria-expanded]').length });
  for (let step = 1; step <= 60; step++) {
    window.scrollTo(0, document.documentElement.scrollHeight);
    await frame();
    await frame();
    const last = list.querySelector('[role="listitem"][aria-posinset="' + setsize + '"]');
    const box = last && last.getBoundingClientRect();
    if (box && box.top >= 0 && box.bottom <= innerHeight) {
      const title = last.querySelector('.issue-title');
      return { reached: true, steps: step, ms: performance.now() - started, lastTitle: title ? ` +
  `title.textContent : last.textContent, ...counts() };
    }
  }
  return { reached: false, steps: 60, ms: performance.now() - started, lastTitle: null, ...counts() };
})()`;

interface WatchResult {
  startAt: number | null;
  changedAt: number | null;
  paintedAt: number | null;
  text: string | null;
  occurrencesAt: number | null;
  occurrences: number;
  eventMs: number | null;
}

const WATCH_TIMEOUT_MS = 15_000;

function timed(what: string, w: WatchResult): TimedUpdate {
  if (w.startAt === null) throw new Error(`${what}: the input or click event was not seen`);
  if (w.changedAt === null || w.paintedAt === null)
    throw new Error(`${what}: the page did not update within ${WATCH_TIMEOUT_MS} ms`);
  return { toUpdateMs: w.changedAt - w.startAt, toPaintMs: w.paintedAt - w.startAt };
}

const shownCount = (text: string | null) =>
  Number((/^([\d,]+) issues? shown/.exec(text ?? '')?.[1] ?? 'NaN').replace(/,/g, ''));

async function searchFor(page: Page, term: string, expected: number): Promise<SearchUpdate> {
  if ((await page.evaluate(ARM_STATUS_WATCH)) === null)
    throw new Error('the issues status ("… shown of …") is missing');
  await page.getByLabel('Search issues').fill(term);
  const w = (await page.evaluate(AWAIT_WATCH(WATCH_TIMEOUT_MS))) as WatchResult;
  return { term, shown: shownCount(w.text), expected, eventMs: w.eventMs, ...timed(`search "${term}"`, w) };
}

export async function measureIssuesInteraction(
  page: Page,
  opts: { term: string; expectedMatches: number; totalIssues: number },
): Promise<IssuesInteraction> {
  // A page the server rendered shows its first rows before the app runs; the app then replaces that markup with its
  // own, live list (without the server's data-server-rows mark). Input is measured on the live list only.
  await page.waitForSelector('[role="list"][aria-label="Issues, most costly first"]:not([data-server-rows])');
  const atTop = (await page.evaluate(COUNT_ROWS)) as { rows: number; issues: number; setsize: number };

  const search = await searchFor(page, opts.term, opts.expectedMatches);
  const clear = await searchFor(page, '', opts.totalIssues);

  const title = (await page.evaluate(ARM_TOGGLE_WATCH)) as string | null;
  if (title === null) throw new Error('no closed issue to open');
  await page
    .getByRole('list', { name: 'Issues, most costly first' })
    .getByRole('button', { expanded: false })
    .first()
    .click();
  const w = (await page.evaluate(AWAIT_WATCH(WATCH_TIMEOUT_MS))) as WatchResult;
  const opened = timed('open the first issue', w);
  if (w.occurrencesAt === null || w.startAt === null) throw new Error('the first issue showed no affected pages');
  const toggle = {
    ...opened,
    title,
    toOccurrencesMs: w.occurrencesAt - w.startAt,
    occurrences: w.occurrences,
    eventMs: w.eventMs,
  };

  const scroll = (await page.evaluate(SCROLL_TO_LAST)) as IssuesInteraction['scroll'];
  return {
    rowsInDom: atTop.rows,
    issueRowsInDom: atTop.issues,
    totalRows: atTop.setsize,
    search,
    clear,
    toggle,
    scroll,
  };
}
