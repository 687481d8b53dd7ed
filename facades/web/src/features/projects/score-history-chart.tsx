import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartTheme, followWidth, timeScale } from '../../components/time-chart';
import { formatShortDate } from '../../lib/format';

export interface ScorePoint {
  completedAt: string;
  overall: number | null;
  meta: number | null;
  content: number | null;
  links: number | null;
  technical: number | null;
  performance: number | null;
  /**
   * How the check settings it was scored with differ from the audit before it, in words; null when they do not. Such
   * a point is marked: its change from the one before is the settings', not the site's.
   */
  settingChanges: string[] | null;
}

type ScoreKey = Exclude<keyof ScorePoint, 'completedAt' | 'settingChanges'>;
const SERIES: { key: ScoreKey; label: string; token: string; width: number }[] = [
  { key: 'overall', label: 'Overall', token: '--chart-1', width: 3 },
  { key: 'meta', label: 'Meta', token: '--chart-2', width: 1.5 },
  { key: 'content', label: 'Content', token: '--chart-3', width: 1.5 },
  { key: 'links', label: 'Links', token: '--chart-4', width: 1.5 },
  { key: 'technical', label: 'Technical', token: '--chart-5', width: 1.5 },
  { key: 'performance', label: 'Performance', token: '--chart-6', width: 1.5 },
];

const HEIGHT = 240;

/**
 * One audit has no history to draw: its overall score as one labelled point on the 0-100 scale (a time axis
 * around a single instant would only show a dot in an empty span of hours).
 */
function SinglePoint({ point }: { point: ScorePoint }) {
  const score = point.overall;
  return (
    <div className="chart-single" aria-hidden="true" style={{ height: HEIGHT }}>
      <div className="chart-single-scale">
        <span>100</span>
        <span>50</span>
        <span>0</span>
      </div>
      <div className="chart-single-plot">
        {score !== null && (
          <div className="chart-single-point" style={{ bottom: `${score}%` }}>
            <span className="chart-single-dot" />
            <span className="chart-single-label">
              Overall {score} · {formatShortDate(point.completedAt)}
            </span>
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * Scores of the project's completed audits over time (uPlot on a canvas). The same numbers are in a table
 * for screen readers; the legend toggles the category lines.
 */
export function ScoreHistoryChart({ points }: { points: ScorePoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const single = points.length === 1;
  const marked = useMemo(() => points.filter((p) => p.settingChanges), [points]);

  useEffect(() => {
    const el = box.current;
    if (!el || single) return;
    const { color, axis } = chartTheme(el);
    const data: uPlot.AlignedData = [
      points.map((p) => new Date(p.completedAt).getTime() / 1000),
      ...SERIES.map((s) => points.map((p) => p[s.key])),
    ];
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        scales: { x: timeScale(), y: { range: [0, 100] } },
        // The legend toggles series; values on hover would only repeat the table below.
        legend: { live: false },
        // A dashed line at each audit scored with other check settings than the one before it.
        hooks: {
          draw: [
            (u) => {
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = axis.stroke as string;
              ctx.setLineDash([4 * devicePixelRatio, 4 * devicePixelRatio]);
              ctx.lineWidth = devicePixelRatio;
              for (const p of marked) {
                const x = Math.round(u.valToPos(new Date(p.completedAt).getTime() / 1000, 'x', true));
                ctx.beginPath();
                ctx.moveTo(x, u.bbox.top);
                ctx.lineTo(x, u.bbox.top + u.bbox.height);
                ctx.stroke();
              }
              ctx.restore();
            },
          ],
        },
        axes: [axis, { ...axis, values: (_u, ticks) => ticks.map(String) }],
        series: [
          { value: (_u, v) => (v == null ? '—' : formatShortDate(new Date(v * 1000).toISOString())) },
          ...SERIES.map((s, i) => ({
            label: s.label,
            stroke: color(s.token, '#1d4ed8'),
            width: s.width,
            show: i === 0 || points.length < 30,
            points: { show: points.length < 40 },
          })),
        ],
      },
      data,
      el,
    );
    return followWidth(plot, el, HEIGHT);
  }, [points, single, marked]);

  return (
    <figure className="chart" aria-labelledby="score-history-caption">
      <figcaption id="score-history-caption" className="chart-caption">
        {points.length === 1
          ? 'Scores of the first completed audit; the history grows with each audit'
          : `Scores of the last ${points.length} completed audits`}
      </figcaption>
      {single ? <SinglePoint point={points[0]} /> : <div ref={box} className="chart-canvas" aria-hidden="true" />}
      {marked.length > 0 && (
        <div className="chart-notes muted small">
          <p>
            Dashed lines: audits scored with other check settings than the audit before; their change is not progress.
          </p>
          <ul>
            {marked.map((p) => (
              <li key={p.completedAt}>
                {formatShortDate(p.completedAt)}: {p.settingChanges!.join('; ')}
              </li>
            ))}
          </ul>
        </div>
      )}
      {/* A table ignores a 1 px width: the hidden box around it keeps the page from widening. */}
      <div className="visually-hidden">
        <table>
          <caption>Score history</caption>
          <thead>
            <tr>
              <th scope="col">Completed</th>
              {SERIES.map((s) => (
                <th scope="col" key={s.key}>
                  {s.label}
                </th>
              ))}
              <th scope="col">Check settings</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.completedAt}>
                <th scope="row">{formatShortDate(p.completedAt)}</th>
                {SERIES.map((s) => (
                  <td key={s.key}>{p[s.key] ?? '—'}</td>
                ))}
                <td>{p.settingChanges ? `Changed: ${p.settingChanges.join('; ')}` : 'Same as before'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
