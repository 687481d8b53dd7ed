import { findCheck, type FixReach } from '../checks/index.js';

/** A fix-grouped issue's fixes as stored and shown: how many, and the widest with their reach. */
export interface FixesShown {
  count: number;
  listed: readonly FixReach[];
  /** The places the fixes are in (fixes on the very same pages are one); absent on issues stored before. */
  places?: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const pages = (n: number) => `${count(n)} page${n === 1 ? '' : 's'}`;

/**
 * A fix-grouped issue in one line, as every surface words it (GraphQL `fixes.summary`, the report, the CLI): "1
 * target, linked from 78 pages"; "9 targets, the widest linked from 78 pages"; "1 element, on 312 pages" (an element
 * a shared template repeats); "330 targets in 1 place, linked from 1 page" (fixes on the very same pages). A link's
 * target is "linked from" its pages; anything else is "on" them.
 */
export function fixesSummary(code: string, fixes: FixesShown): string {
  const definition = findCheck(code);
  const unit = definition?.fixUnit ?? 'target';
  const noun = `${unit}${fixes.count === 1 ? '' : 's'}`;
  const verb = unit === 'target' && definition?.category === 'LINKS' ? 'linked from' : 'on';
  const widest = fixes.listed[0];
  if (!widest) return `${count(fixes.count)} ${noun}`;
  if (fixes.count === 1) return `1 ${noun}, ${verb} ${pages(widest.pages)}`;
  // Fixes on the very same pages are one place: "330 targets in 1 place, linked from 1 page".
  const places = fixes.places !== undefined && fixes.places < fixes.count ? fixes.places : null;
  if (places === 1) return `${count(fixes.count)} ${noun} in 1 place, ${verb} ${pages(widest.pages)}`;
  const where = places === null ? '' : ` in ${count(places)} places`;
  return `${count(fixes.count)} ${noun}${where}, the widest ${verb} ${pages(widest.pages)}`;
}
