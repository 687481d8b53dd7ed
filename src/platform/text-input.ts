import { badInput, type ErrorDetail } from './errors.js';

/**
 * PostgreSQL text cannot hold U+0000: a NUL byte in any argument would fail inside the driver (a 500) or,
 * in a query parameter, break the protocol message. Every argument of the schema is checked once, before
 * its resolver runs (schema/build-schema.ts), so no service has to remember it.
 */
export function nulPath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return path;
    } else if (node !== null && typeof node === 'object') {
      const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
      for (const [key, child] of entries) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return null;
}

/** Throws BAD_USER_INPUT naming the first argument that holds a NUL character (paths relative to `input`). */
export function assertNoNul(args: Record<string, unknown>): void {
  const path = nulPath(args);
  if (path === null) return;
  const field = path.replace(/^input\./, '');
  const detail: ErrorDetail = { path: field, message: 'must be text without NUL (U+0000) characters; binary content is not accepted' };
  throw badInput(`${field} ${detail.message}`, [detail]);
}
