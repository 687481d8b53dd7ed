import type uPlot from 'uplot';

/**
 * What the app's uPlot charts share: colours read from the theme's custom properties, the axis style, a time scale,
 * and a plot that follows its box's width.
 */

/** A colour of the page's theme (a CSS custom property on the chart's box), or the fallback where it is unset. */
export type ThemeColor = (token: string, fallback?: string) => string;

export function chartTheme(el: HTMLElement): { color: ThemeColor; axis: uPlot.Axis } {
  const css = getComputedStyle(el);
  const color: ThemeColor = (token, fallback = '#5b6370') => css.getPropertyValue(token).trim() || fallback;
  const axis = {
    stroke: color('--text-muted'),
    grid: { stroke: color('--border', '#d9dde3'), width: 1 },
    ticks: { stroke: color('--border', '#d9dde3') },
  };
  return { color, axis };
}

/** A time axis (a new one per plot); a single point spans the two days around it instead of uPlot's 1,000. */
export const timeScale = (): uPlot.Scale => ({
  time: true,
  range: (u, min, max) => (u.data[0].length === 1 ? [u.data[0][0] - 86_400, u.data[0][0] + 86_400] : [min, max]),
});

/** Keeps the plot as wide as its box; the returned cleanup (an effect's) stops that and removes the plot. */
export function followWidth(plot: uPlot, el: HTMLElement, height: number): () => void {
  const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height }));
  resize.observe(el);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}
