/**
 * The kinds of a keyword's change between its two latest successful checks (the rule: `keywordChange` in
 * keyword.service.ts; the GraphQL enum KeywordChangeKind is registered from this object in keyword.types.ts). A plain
 * object, so that the service and the workers that load it load no GraphQL library.
 */
export const KEYWORD_CHANGE_KINDS = {
  NONE: 'NONE',
  MOVED: 'MOVED',
  NEW: 'NEW',
  BACK: 'BACK',
  DROPPED: 'DROPPED',
  ABSENT: 'ABSENT',
} as const;
export type KeywordChangeKind = (typeof KEYWORD_CHANGE_KINDS)[keyof typeof KEYWORD_CHANGE_KINDS];
