/**
 * What tracked rankings add to an issue's priority (score-formula.ts, issuePriority): an issue on a page that ranks
 * costs traffic, so it is fixed before one of the same cost on a page nobody reaches from search.
 *
 *   ranking weight = Σ over the affected pages that rank, Σ over their keywords of weight(position)
 *                    weight: top 3 1.0 | 4-10 0.6 | 11-20 0.3 | beyond 0.1   (clicks fall off steeply by position)
 *   ranking term   = RANKING_POINTS × severity weight (CRITICAL 1.0 | WARNING 0.3 | NOTICE 0.03) × ranking weight
 *
 * RANKING_POINTS = 10: a keyword in the top 3 on an affected page weighs as much as the issue on a tenth more of the
 * crawled pages. The severity weight keeps a NOTICE on the home page from outranking real faults elsewhere.
 */

/** The points one top-3 keyword on an affected page adds, before the severity weight. */
export const RANKING_POINTS = 10;

/** Position bands, best first: a keyword ranking at `upTo` or better weighs `weight`. */
export const RANKING_POSITION_WEIGHTS: readonly { upTo: number; weight: number }[] = [
  { upTo: 3, weight: 1 },
  { upTo: 10, weight: 0.6 },
  { upTo: 20, weight: 0.3 },
];
/** The weight of a keyword ranking beyond the last band. */
export const RANKING_TAIL_WEIGHT = 0.1;

/** How much one ranking keyword at `position` (1 = first result) weighs. */
export function rankingPositionWeight(position: number): number {
  for (const band of RANKING_POSITION_WEIGHTS) if (position <= band.upTo) return band.weight;
  return RANKING_TAIL_WEIGHT;
}

/** The ranking weight of an issue: per affected page that ranks, the positions of its keywords. */
export function rankingWeight(pages: readonly (readonly number[])[]): number {
  let sum = 0;
  for (const positions of pages) for (const position of positions) sum += rankingPositionWeight(position);
  return sum;
}
