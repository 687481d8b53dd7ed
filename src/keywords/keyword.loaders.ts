/** Where the rows Project.counts.keywords counts live; registered with the project counters (one statement for all of a list's counts). */
export const KEYWORD_COUNT_SOURCE = { table: 'keyword' } as const;
