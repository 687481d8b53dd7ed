/*
 * knex expands an array binding into a comma-separated list, so lists cannot be bound as-is through the ORM
 * connection: bulk inserts send ONE JSON document and read it with jsonb_to_recordset. (nativeQuery binds
 * arrays natively.)
 */

const NUL = '\u0000';
/** U+FFFD: the character was there, but PostgreSQL cannot store it. */
const REPLACEMENT = '\uFFFD';

function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll(NUL, REPLACEMENT);
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll(NUL, REPLACEMENT), withoutNul(v)]));
  }
  return value;
}

/**
 * `jsonb_to_recordset(?::jsonb) AS r(col type, ...)` or `jsonb_array_elements_text(?::jsonb)` with the value from here.
 * PostgreSQL's text and jsonb cannot hold U+0000 ("unsupported Unicode escape sequence"), and crawled pages can carry
 * it (binary served as HTML, a gzip bomb of zeros): it is replaced, so one such page cannot fail a whole audit.
 */
export const jsonParam = (value: unknown): string => {
  const json = JSON.stringify(value);
  return json.includes('\\u0000') ? JSON.stringify(withoutNul(value)) : json;
};
