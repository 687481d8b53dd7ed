import { findPosition, type SerpResult } from '../serp/index.js';
import type { CompetitorPositionType } from './competitor.types.js';

/** Click-through rate by organic position (a typical desktop curve); beyond 20 it is negligible. */
export const CTR_CURVE: readonly number[] = [
  0.28, 0.15, 0.11, 0.08, 0.07, 0.05, 0.04, 0.03, 0.03, 0.02, 0.015, 0.013, 0.011, 0.01, 0.009, 0.008, 0.007, 0.006,
  0.005, 0.005,
];

/** The stored host may carry a port (where its homepage lives); SERP results are matched on the name alone. */
export const competitorHostname = (domain: string): string => domain.split(':')[0];

export interface KeywordSnapshot {
  keywordId: string;
  term: string;
  checkedAt: Date;
  results: SerpResult[];
}

/**
 * Positions of a domain for the project's keywords, read from existing snapshots (no provider calls). Visibility
 * (share of voice) is the clicks its positions would earn on the CTR curve, as a share of the clicks of ranking
 * first for every checked keyword. A competitor's subdomains count as the competitor; the project's follow its
 * `rankIncludeSubdomains` setting, as its rank checks do.
 */
export function competitorMetrics(
  domain: string,
  snapshots: readonly KeywordSnapshot[],
  opts: { includeSubdomains?: boolean } = {},
) {
  const includeSubdomains = opts.includeSubdomains ?? true;
  const positions: CompetitorPositionType[] = snapshots.map((s) => {
    const hit = findPosition(s.results, competitorHostname(domain), { includeSubdomains });
    return { keywordId: s.keywordId, term: s.term, position: hit?.position ?? null, url: hit?.url ?? null };
  });
  const ranked = positions.filter((p): p is CompetitorPositionType & { position: number } => p.position !== null);
  const averagePosition = ranked.length
    ? Math.round((ranked.reduce((sum, p) => sum + p.position, 0) / ranked.length) * 10) / 10
    : null;
  const maxClicks = snapshots.length * CTR_CURVE[0];
  const clicks = ranked.reduce((sum, p) => sum + (CTR_CURVE[p.position - 1] ?? 0), 0);
  const lastChecked = snapshots.reduce<Date | null>(
    (latest, s) => (!latest || s.checkedAt > latest ? s.checkedAt : latest),
    null,
  );
  return {
    positions,
    keywordsInTop10: ranked.filter((p) => p.position <= 10).length,
    averagePosition,
    visibility: maxClicks ? Math.round((clicks / maxClicks) * 1000) / 10 : 0,
    lastChecked,
  };
}
