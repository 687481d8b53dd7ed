import { useEffect, useId, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartTheme, followWidth, timeScale, type ThemeColor } from '../../components/time-chart';
import { formatShortDate } from '../../lib/format';
import { HistoryChecks, type CheckPoint } from './history-checks';

export type PositionPoint = CheckPoint;

export interface PositionSeries {
  keywordId: string;
  term: string;
  history: PositionPoint[];
}

const TOKENS = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6'];
/** Beyond the six theme colours, further lines get evenly spread hues (the legend names each). */
const colorOf = (color: ThemeColor, i: number) =>
  i < TOKENS.length ? color(TOKENS[i], '#1d4ed8') : `hsl(${(i * 137.5) % 360} 65% 45%)`;

const HEIGHT = 260;

/** Ticks of the position axis: always #1 (the top), then round steps to the worst position drawn. */
function positionTicks(max: number): number[] {
  const step = max <= 10 ? 1 : max <= 20 ? 2 : max <= 50 ? 5 : max <= 100 ? 10 : 20;
  const ticks = [1];
  for (let t = step === 1 ? 2 : step; t <= max; t += step) ticks.push(t);
  return ticks;
}

/**
 * One x axis for every series (the union of their check times): a series has `undefined` where it was not checked
 * (the line continues) and `null` where its check failed or did not find the keyword (a gap, never a zero).
 */
export function alignSeries(series: readonly PositionSeries[]): uPlot.AlignedData {
  const times = new Set<number>();
  for (const s of series) for (const p of s.history) times.add(Date.parse(p.checkedAt) / 1000);
  const xs = Float64Array.from(times).sort();
  const index = new Map<number, number>();
  xs.forEach((x, i) => index.set(x, i));
  const ys = series.map((s) => {
    const y: (number | null | undefined)[] = new Array<number | null | undefined>(xs.length).fill(undefined);
    for (const p of s.history) y[index.get(Date.parse(p.checkedAt) / 1000)!] = p.position;
    return y;
  });
  return [Array.from(xs), ...ys] as uPlot.AlignedData;
}

function summaryOf(s: PositionSeries) {
  const found = s.history.filter((p) => p.position !== null) as (PositionPoint & { position: number })[];
  return {
    checks: s.history.length,
    failed: s.history.filter((p) => p.status === 'FAILED').length,
    notFound: s.history.filter((p) => p.status === 'OK' && p.position === null).length,
    first: found[0]?.position ?? null,
    last: found.at(-1)?.position ?? null,
    best: found.length ? Math.min(...found.map((p) => p.position)) : null,
    worst: found.length ? Math.max(...found.map((p) => p.position)) : null,
  };
}

function singleSummary(s: PositionSeries): string {
  const m = summaryOf(s);
  if (m.checks === 0) return 'No check in this period.';
  const parts = [
    `${m.checks} ${m.checks === 1 ? 'check' : 'checks'}`,
    m.last === null ? 'not found at the latest successful check' : `latest position ${m.last}`,
    m.best === null ? 'never found' : `best ${m.best}, worst ${m.worst}`,
  ];
  if (m.failed) parts.push(`${m.failed} failed (gaps)`);
  if (m.notFound) parts.push(`${m.notFound} not found (gaps)`);
  return `${parts.join(' · ')}.`;
}

/**
 * Positions over time (uPlot on a canvas), position 1 at the top; a failed check or a check that did not find the
 * keyword is a gap in the line. The same facts are given as text for screen readers: every check of a single
 * keyword in a table, or a summary per keyword when several are compared.
 */
export function PositionChart({ series, caption }: { series: readonly PositionSeries[]; caption: string }) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const data = useMemo(() => alignSeries(series), [series]);
  const checks = data[0].length;

  useEffect(() => {
    const el = box.current;
    if (!el || checks === 0) return;
    const { color, axis } = chartTheme(el);
    const many = checks > 60;
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        scales: {
          x: timeScale(),
          // Position 1 at the top: the scale runs downwards from 1 to the worst position drawn.
          y: { dir: -1, range: (_u, _min, max) => [1, Math.max(10, Math.ceil(((max ?? 10) + 1) / 5) * 5)] },
        },
        legend: { show: series.length > 1, live: false },
        cursor: { drag: { x: false, y: false } },
        axes: [
          axis,
          {
            ...axis,
            splits: (_u, _i, _min, max) => positionTicks(max),
            values: (_u, ticks) => ticks.map((t) => `#${t}`),
          },
        ],
        series: [
          { value: (_u, v) => (v == null ? '—' : formatShortDate(new Date(v * 1000).toISOString())) },
          ...series.map((s, i) => ({
            label: s.term,
            stroke: colorOf(color, i),
            width: series.length > 1 ? 1.5 : 2,
            spanGaps: false,
            points: { show: !many || series.length === 1, size: many ? 3 : 6 },
          })),
        ],
      },
      data,
      el,
    );
    return followWidth(plot, el, HEIGHT);
  }, [data, series, checks]);

  const single = series.length === 1 ? series[0] : null;
  return (
    <figure className="chart keyword-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="chart-caption">
        {caption}
      </figcaption>
      {checks === 0 ? (
        <p className="muted">No check in this period yet.</p>
      ) : (
        <div ref={box} className="chart-canvas" aria-hidden="true" />
      )}
      {single && <p className="muted small">{singleSummary(single)}</p>}
      {single ? (
        <HistoryChecks series={single} />
      ) : (
        <div className="visually-hidden">
          <table>
            <caption>Summary of the compared keywords</caption>
            <thead>
              <tr>
                <th scope="col">Keyword</th>
                <th scope="col">First</th>
                <th scope="col">Latest</th>
                <th scope="col">Best</th>
                <th scope="col">Worst</th>
                <th scope="col">Checks</th>
                <th scope="col">Gaps</th>
              </tr>
            </thead>
            <tbody>
              {series.map((s) => {
                const m = summaryOf(s);
                return (
                  <tr key={s.keywordId}>
                    <th scope="row">{s.term}</th>
                    <td>{m.first ?? '—'}</td>
                    <td>{m.last ?? '—'}</td>
                    <td>{m.best ?? '—'}</td>
                    <td>{m.worst ?? '—'}</td>
                    <td>{m.checks}</td>
                    <td>{m.failed + m.notFound === 0 ? 0 : `${m.failed} failed, ${m.notFound} not found`}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
