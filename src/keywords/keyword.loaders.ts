/** Registered with the project counters (one statement for all of a list's counts). */
export const KEYWORD_COUNT_SQL = 'SELECT project_id, count(*)::int AS n FROM keyword WHERE project_id = ANY($1::uuid[]) GROUP BY project_id';
