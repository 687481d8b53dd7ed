import type { RankingKeywordChipFragment } from '../../gql/graphql';

/** "#7 running shoes", with the device when it is not the usual desktop. */
export const rankingKeywordText = (k: RankingKeywordChipFragment): string =>
  `#${k.position} ${k.term}${k.device === 'mobile' ? ' (mobile)' : ''}`;
