import type { PageLoad } from './page-vitals.js';
import type { IssuesInteraction } from './issues-page-interaction.js';

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!s.length) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mid = Math.floor(s.length / 2);
  return { median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, min: s[0], max: s[s.length - 1] };
}

export interface PageSummary {
  name: string;
  label: string;
  runs: number;
  lcpMs: Spread;
  cls: Spread;
  tbtMs: Spread;
  fcpMs: Spread;
  transferKb: Spread;
  readyMs: Spread;
  /** This page's median LCP over the static page's median LCP. */
  lcpVsStatic: number;
  /** The LCP elements seen, most frequent first. */
  lcpElements: string[];
}

export function summarizePage(
  name: string,
  label: string,
  loads: readonly PageLoad[],
  staticLcpMedian: number,
): PageSummary {
  const lcpMs = spread(loads.map((l) => l.lcpMs ?? Number.NaN));
  const elements = new Map<string, number>();
  for (const l of loads) elements.set(l.lcpElement ?? '(none)', (elements.get(l.lcpElement ?? '(none)') ?? 0) + 1);
  return {
    name,
    label,
    runs: loads.length,
    lcpMs,
    cls: spread(loads.map((l) => l.cls)),
    tbtMs: spread(loads.map((l) => l.tbtMs)),
    fcpMs: spread(loads.map((l) => l.fcpMs ?? Number.NaN)),
    transferKb: spread(loads.map((l) => l.transferBytes / 1024)),
    readyMs: spread(loads.map((l) => l.readyMs)),
    lcpVsStatic: lcpMs.median / staticLcpMedian,
    lcpElements: [...elements].sort((a, b) => b[1] - a[1]).map(([e, n]) => `${e} (${n}x)`),
  };
}

const fmt = (s: Spread, digits: number) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}-${s.max.toFixed(digits)})`;

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function formatPageTable(rows: readonly PageSummary[]): string {
  return table(
    ['page', 'runs', 'LCP ms', 'CLS', 'TBT ms', 'FCP ms', 'KB transferred', 'ready ms', 'LCP / static'],
    rows.map((r) => [
      r.label,
      String(r.runs),
      fmt(r.lcpMs, 0),
      fmt(r.cls, 3),
      fmt(r.tbtMs, 0),
      fmt(r.fcpMs, 0),
      fmt(r.transferKb, 1),
      fmt(r.readyMs, 0),
      `${r.lcpVsStatic.toFixed(2)}x`,
    ]),
  );
}

export interface InteractionSummary {
  runs: number;
  searchTerm: string;
  searchShown: number[];
  searchExpected: number;
  searchToUpdateMs: Spread;
  searchToPaintMs: Spread;
  searchEventMs: Spread;
  clearToUpdateMs: Spread;
  clearToPaintMs: Spread;
  clearEventMs: Spread;
  openToPaintMs: Spread;
  openToOccurrencesMs: Spread;
  openEventMs: Spread;
  rowsInDom: Spread;
  issueRowsInDom: Spread;
  totalRows: number;
  rowsInDomAtBottom: Spread;
  lastReached: number;
  lastTitles: string[];
  scrollMs: Spread;
}

export function summarizeInteraction(runs: readonly IssuesInteraction[]): InteractionSummary {
  // No Event Timing entry means the events took under its 16 ms threshold: counted as 0, not left out.
  const num = (xs: (number | null)[]) => spread(xs.map((x) => x ?? 0));
  return {
    runs: runs.length,
    searchTerm: runs[0]?.search.term ?? '',
    searchShown: runs.map((r) => r.search.shown),
    searchExpected: runs[0]?.search.expected ?? Number.NaN,
    searchToUpdateMs: spread(runs.map((r) => r.search.toUpdateMs)),
    searchToPaintMs: spread(runs.map((r) => r.search.toPaintMs)),
    searchEventMs: num(runs.map((r) => r.search.eventMs)),
    clearToUpdateMs: spread(runs.map((r) => r.clear.toUpdateMs)),
    clearToPaintMs: spread(runs.map((r) => r.clear.toPaintMs)),
    clearEventMs: num(runs.map((r) => r.clear.eventMs)),
    openToPaintMs: spread(runs.map((r) => r.toggle.toPaintMs)),
    openToOccurrencesMs: spread(runs.map((r) => r.toggle.toOccurrencesMs)),
    openEventMs: num(runs.map((r) => r.toggle.eventMs)),
    rowsInDom: spread(runs.map((r) => r.rowsInDom)),
    issueRowsInDom: spread(runs.map((r) => r.issueRowsInDom)),
    totalRows: runs[0]?.totalRows ?? 0,
    rowsInDomAtBottom: spread(runs.map((r) => r.scroll.rowsInDom)),
    lastReached: runs.filter((r) => r.scroll.reached).length,
    lastTitles: [...new Set(runs.map((r) => r.scroll.lastTitle ?? '(not rendered)'))],
    scrollMs: spread(runs.map((r) => r.scroll.ms)),
  };
}

export function formatInteractionTable(s: InteractionSummary): string {
  return table(
    ['issues page, 2,000 issues', 'median (min-max)'],
    [
      [`search "${s.searchTerm}": input -> list updated, ms`, fmt(s.searchToUpdateMs, 0)],
      [`search "${s.searchTerm}": input -> next frame, ms`, fmt(s.searchToPaintMs, 0)],
      ['search: longest Event Timing entry of the input (0: none >= 16 ms), ms', fmt(s.searchEventMs, 0)],
      ['clear the search (back to 2,000): input -> list updated, ms', fmt(s.clearToUpdateMs, 0)],
      ['clear the search: input -> next frame, ms', fmt(s.clearToPaintMs, 0)],
      ['clear: longest Event Timing entry of the input, ms', fmt(s.clearEventMs, 0)],
      ['open the first issue: click -> panel painted, ms', fmt(s.openToPaintMs, 0)],
      ['open: longest Event Timing entry of the click, ms', fmt(s.openEventMs, 0)],
      ['open the first issue: click -> affected pages shown, ms', fmt(s.openToOccurrencesMs, 0)],
      [`rows in the DOM when ready (of ${s.totalRows})`, fmt(s.rowsInDom, 0)],
      ['issue rows in the DOM when ready (of 2,000)', fmt(s.issueRowsInDom, 0)],
      ['rows in the DOM scrolled to the bottom', fmt(s.rowsInDomAtBottom, 0)],
      ['scroll to the bottom -> last issue on screen, ms', fmt(s.scrollMs, 0)],
      ['last issue rendered at the bottom', `${s.lastReached}/${s.runs} runs`],
    ],
  );
}

/**
 * What explains the figures, per page: the layout shifts and what moved, the long tasks, the API calls a load
 * makes (a duplicate shows as x2) and the largest API response with the server's wait for it.
 */
export function formatDiagnostics(pages: readonly { name: string; loads: readonly PageLoad[] }[]): string[] {
  const out: string[] = [];
  for (const { name, loads } of pages) {
    if (!loads.length) continue;
    const lines: string[] = [];
    const shifts = new Map<string, number[]>();
    for (const l of loads) {
      for (const s of l.shifts) {
        const key = s.sources.filter(Boolean).join(' + ') || '(no source)';
        shifts.set(key, [...(shifts.get(key) ?? []), s.value]);
      }
    }
    for (const [source, values] of shifts)
      lines.push(
        `layout shift ${spread(values).median.toFixed(3)} (${values.length}x in ${loads.length} loads): ${source}`,
      );
    // Where the time goes: the server (first to last byte of the streamed page) or the browser (last byte to paint).
    const ttfb = spread(loads.map((l) => l.ttfbMs ?? Number.NaN));
    const docEnd = spread(loads.map((l) => l.documentEndMs ?? Number.NaN));
    const paintAfter = spread(loads.map((l) => (l.fcpMs ?? Number.NaN) - (l.documentEndMs ?? Number.NaN)));
    lines.push(
      `document: first byte ${fmt(ttfb, 0)} ms, last byte ${fmt(docEnd, 0)} ms, ` +
        `first paint ${paintAfter.median.toFixed(0)} ms after the last byte`,
    );
    const tasks = spread(loads.map((l) => l.longestTaskMs));
    lines.push(
      `long tasks per load ${spread(loads.map((l) => l.longTasks)).median}, ` +
        `longest ${tasks.median.toFixed(0)} ms (${tasks.min.toFixed(0)}-${tasks.max.toFixed(0)})`,
    );
    const calls = new Map<string, number>();
    for (const c of loads[0].apiCalls) calls.set(c.path, (calls.get(c.path) ?? 0) + 1);
    if (calls.size)
      lines.push(
        `API calls finished by the read-out (first run): ${[...calls].map(([path, n]) => `${path} x${n}`).join(', ')}`,
      );
    const largest = loads
      .map((l) => [...l.apiCalls].sort((a, b) => b.bytes - a.bytes)[0])
      .filter((c) => c !== undefined);
    if (largest.length) {
      const wait = spread(largest.map((c) => c.waitMs));
      lines.push(
        `largest API response: ${largest[0].path} ` +
          `${(spread(largest.map((c) => c.bytes)).median / 1024).toFixed(1)} KB, ` +
          `requested at ${spread(largest.map((c) => c.startMs)).median.toFixed(0)} ms, ` +
          (`server wait ${wait.median.toFixed(0)} ms (${wait.min.toFixed(0)}-${wait.max.toFixed(0)}), ` +
            `download ${spread(largest.map((c) => c.downloadMs)).median.toFixed(0)} ms`),
      );
    }
    out.push(`  ${name}:`, ...lines.map((l) => `    ${l}`));
  }
  return out;
}
