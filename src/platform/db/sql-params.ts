/*
 * knex expands an array binding into a comma-separated list, so lists cannot be bound as-is through the ORM
 * connection: bulk inserts send ONE JSON document and read it with jsonb_to_recordset. (nativeQuery binds
 * arrays natively.)
 */

/** `jsonb_to_recordset(?::jsonb) AS r(col type, ...)` or `jsonb_array_elements_text(?::jsonb)` with the value from here. */
export const jsonParam = (value: unknown): string => JSON.stringify(value);
