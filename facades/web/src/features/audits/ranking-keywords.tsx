import { useId } from 'react';
import type { RankingKeywordChipFragment } from '../../gql/graphql';

/** "#7 running shoes", with the device when it is not the usual desktop. */
export const rankingKeywordText = (k: RankingKeywordChipFragment): string =>
  `#${k.position} ${k.term}${k.device === 'mobile' ? ' (mobile)' : ''}`;

/**
 * The tracked keywords a crawled page ranks for (their latest check, the project's latest completed audit): an issue
 * on it costs traffic. Nothing when it ranks for none.
 */
export function RankingKeywords({ keywords }: { keywords: readonly RankingKeywordChipFragment[] }) {
  const labelId = useId();
  if (!keywords.length) return null;
  return (
    <div className="ranking-keywords">
      <span id={labelId} className="ranking-keywords-label">
        Ranks for
      </span>
      <ul aria-labelledby={labelId} className="ranking-keyword-list">
        {keywords.map((k) => (
          <li key={k.keywordId} className="badge badge-ranking">
            {rankingKeywordText(k)}
          </li>
        ))}
      </ul>
    </div>
  );
}
