import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartTheme, followWidth, timeScale } from '../../components/time-chart';
import { formatDateTime } from '../../lib/format';

export interface VitalBand {
  metric: string;
  label: string;
  unit: string;
  good: number;
  poor: number;
}

export interface VitalPoint {
  measuredAt: string;
  value: number | null;
  source: string;
}

export type BandName = 'good' | 'needs-improvement' | 'poor';

export const BAND_LABEL: Record<BandName, string> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};

/** Which of the server's bands a value falls in (good up to and including `good`, poor above `poor`). */
export const bandOf = (value: number, band: VitalBand): BandName =>
  value <= band.good ? 'good' : value <= band.poor ? 'needs-improvement' : 'poor';

/** "2.5 s", "180 ms", "0.125". */
export function formatVital(value: number, unit: string): string {
  if (unit !== 'ms')
    return value
      .toFixed(value < 1 ? 3 : 2)
      .replace(/0+$/, '')
      .replace(/\.$/, '');
  return value >= 1000 ? `${(value / 1000).toFixed(2).replace(/0$/, '')} s` : `${Math.round(value)} ms`;
}

export const SOURCE_LABEL: Record<string, string> = {
  LAB: 'Lab (Chromium)',
  HTTP: 'HTTP only',
};

const HEIGHT = 160;

/**
 * One metric of one page over time (uPlot), over background bands good / needs improvement / poor drawn from the
 * thresholds the API gives. Screen readers get the same values in a table.
 */
export function VitalChart({ band, points }: { band: VitalBand; points: VitalPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const theme = chartTheme(el);
    const { color } = theme;
    const axis = { ...theme.axis, font: '11px system-ui, sans-serif' };
    const fills: [BandName, string][] = [
      ['good', color('--good', '#15803d')],
      ['needs-improvement', color('--average', '#b45309')],
      ['poor', color('--danger', '#b91c1c')],
    ];
    const values = points.map((p) => p.value).filter((v): v is number => v !== null);
    const top = Math.max(band.poor * 1.3, ...values.map((v) => v * 1.1));
    const drawBands = (u: uPlot) => {
      const { ctx } = u;
      const { left, top: y0, width, height } = u.bbox;
      const edges = [0, band.good, band.poor, top];
      ctx.save();
      ctx.globalAlpha = 0.14;
      fills.forEach(([, fill], i) => {
        const from = u.valToPos(edges[i + 1], 'y', true);
        const to = u.valToPos(edges[i], 'y', true);
        ctx.fillStyle = fill;
        ctx.fillRect(left, Math.max(y0, from), width, Math.min(y0 + height, to) - Math.max(y0, from));
      });
      ctx.restore();
    };
    const plot = new uPlot(
      {
        width: el.clientWidth || 300,
        height: HEIGHT,
        scales: {
          x: timeScale(),
          y: { range: [0, top] },
        },
        legend: { show: false },
        cursor: { show: false },
        axes: [axis, { ...axis, size: 56, values: (_u, ticks) => ticks.map((v) => formatVital(v, band.unit)) }],
        series: [
          {},
          {
            label: band.metric,
            stroke: color('--chart-1', '#1d4ed8'),
            width: 2,
            spanGaps: false,
            points: { show: true, size: 6 },
          },
        ],
        hooks: { drawClear: [drawBands] },
      },
      [points.map((p) => new Date(p.measuredAt).getTime() / 1000), points.map((p) => p.value)],
      el,
    );
    return followWidth(plot, el, HEIGHT);
  }, [band, points]);

  const unit = band.unit === 'ms' ? '' : ' (unitless)';
  return (
    <figure className="chart vital-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="chart-caption">
        {`${band.label} (${band.metric})${unit} over time. `}
        {`Bands: good up to ${formatVital(band.good, band.unit)}, poor above ${formatVital(band.poor, band.unit)}.`}
      </figcaption>
      <div ref={box} className="chart-canvas vital-canvas" aria-hidden="true" />
      {/* A table ignores the 1 px width of .visually-hidden and would widen the page: the box around it clips it. */}
      <div className="visually-hidden">
        <table>
          <caption>{band.metric} measurements</caption>
          <thead>
            <tr>
              <th scope="col">Measured</th>
              <th scope="col">{band.metric}</th>
              <th scope="col">Band</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.measuredAt}>
                <th scope="row">{formatDateTime(p.measuredAt)}</th>
                <td>{p.value === null ? 'not measured' : formatVital(p.value, band.unit)}</td>
                <td>{p.value === null ? '—' : BAND_LABEL[bandOf(p.value, band)]}</td>
                <td>{SOURCE_LABEL[p.source] ?? p.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
