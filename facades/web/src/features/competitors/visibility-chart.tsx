import { useEffect, useId, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartTheme, followWidth, timeScale } from '../../components/time-chart';
import { formatShortDate } from '../../lib/format';

export interface VisibilityPoint {
  day: string;
  domain: string;
  visibility: number;
  keywordsChecked: number;
}

const TOKENS = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6'];
const HEIGHT = 240;

/**
 * Visibility (share of voice) per day of the project and each competitor (uPlot). The legend toggles domains;
 * the same numbers are in a table for screen readers.
 */
export function VisibilityChart({ domains, points }: { domains: string[]; points: VisibilityPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const days = useMemo(() => [...new Set(points.map((p) => p.day))].sort(), [points]);
  const byDay = useMemo(() => {
    const map = new Map<string, Map<string, number>>();
    for (const p of points) {
      const day = map.get(p.day) ?? new Map<string, number>();
      day.set(p.domain, p.visibility);
      map.set(p.day, day);
    }
    return map;
  }, [points]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { color, axis } = chartTheme(el);
    const top = Math.max(10, ...points.map((p) => p.visibility));
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        scales: {
          x: timeScale(),
          y: { range: [0, Math.min(100, Math.ceil((top * 1.1) / 5) * 5)] },
        },
        legend: { live: false },
        axes: [axis, { ...axis, values: (_u, ticks) => ticks.map((v) => `${v}%`) }],
        series: [
          {},
          ...domains.map((domain, i) => ({
            label: domain,
            stroke: color(TOKENS[i % TOKENS.length], '#1d4ed8'),
            width: i === 0 ? 3 : 1.5,
            spanGaps: false,
            points: { show: days.length < 40 },
          })),
        ],
      },
      [
        days.map((d) => new Date(d).getTime() / 1000),
        ...domains.map((domain) => days.map((d) => byDay.get(d)?.get(domain) ?? null)),
      ],
      el,
    );
    return followWidth(plot, el, HEIGHT);
  }, [domains, days, byDay, points]);

  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="chart-caption">
        {days.length === 1
          ? `Visibility on ${formatShortDate(days[0])}; the trend grows with each daily rank check`
          : `Visibility (share of voice, %) per day over the last ${days.length} checked days`}
      </figcaption>
      <div ref={box} className="chart-canvas" aria-hidden="true" />
      {/* A table ignores the 1 px width of .visually-hidden and would widen the page: the box around it clips it. */}
      <div className="visually-hidden">
        <table>
          <caption>Visibility per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {domains.map((d) => (
                <th scope="col" key={d}>
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day}>
                <th scope="row">{formatShortDate(day)}</th>
                {domains.map((d) => {
                  const v = byDay.get(day)?.get(d);
                  return <td key={d}>{v === undefined ? '—' : `${v}%`}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
