/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { KeywordResolver } from './keyword.resolver.js';
export {
  KeywordType,
  KeywordChangeType,
  KeywordCannibalisationType,
  CannibalisingUrlType,
  KeywordRankingsType,
  RankingPointType,
  AddKeywordsInput,
  RankCheckPayload,
  RankTrackingType,
} from './keyword.types.js';
