import { uuidv7 } from 'uuidv7';

/** Opaque, time-ordered identifiers (UUIDv7), generated in the application so they exist before flush. */
export const newId = (): string => uuidv7();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Our ids are UUIDs; anything else cannot name a row (and must not reach a uuid column as-is). */
export const isUuid = (s: string): boolean => UUID_RE.test(s);
