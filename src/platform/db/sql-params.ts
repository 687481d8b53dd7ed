import { isUuid } from '../ids.js';

/*
 * knex expands an array binding into a comma-separated list, so arrays cannot be bound as-is.
 * These turn lists into ONE bound value: a PostgreSQL array literal of validated UUIDs, or a JSON document
 * for bulk inserts through jsonb_to_recordset.
 */

/** `= ANY(?::uuid[])` with the value from here. Only well-formed UUIDs can reach the literal. */
export function uuidArray(ids: readonly string[]): string {
  for (const id of ids) if (!isUuid(id)) throw new TypeError(`not a UUID: ${JSON.stringify(id)}`);
  return `{${ids.join(',')}}`;
}

/** `jsonb_to_recordset(?::jsonb) AS r(col type, ...)` or `jsonb_array_elements_text(?::jsonb)` with the value from here. */
export const jsonParam = (value: unknown): string => JSON.stringify(value);
