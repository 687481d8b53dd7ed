import { badInput, type ErrorDetail } from './errors.js';

/**
 * PostgreSQL text cannot hold U+0000: a NUL byte in any argument would fail inside the driver (a 500) or,
 * in a query parameter, break the protocol message; a lone UTF-16 surrogate is no Unicode at all (jsonb
 * refuses its escape). Every argument of the schema is checked once, before its resolver runs
 * (schema/build-schema.ts), so no service has to remember it.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NUL = 'must be text without NUL (U+0000) characters; binary content is not accepted';
const SURROGATE = 'must be valid Unicode text (it holds a lone UTF-16 surrogate)';

/** The path of the first string (or key) in `value` that is not storable text, with the reason. */
export function invalidTextPath(value: unknown): { path: string; message: string } | null {
  const problem = (text: string) => (text.includes('\u0000') ? NUL : LONE_SURROGATE.test(text) ? SURROGATE : null);
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      const message = problem(node);
      if (message) return { path, message };
    } else if (node !== null && typeof node === 'object') {
      const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
      for (const [key, child] of entries) {
        const childPath = path ? `${path}.${key}` : key;
        const message = problem(key);
        if (message) return { path: childPath, message };
        stack.push([child, childPath]);
      }
    }
  }
  return null;
}

/** Throws BAD_USER_INPUT naming the first argument that is not storable text (paths relative to `input`). */
export function assertStorableText(args: Record<string, unknown>): void {
  const found = invalidTextPath(args);
  if (found === null) return;
  const detail: ErrorDetail = { path: found.path.replace(/^input\./, ''), message: found.message };
  throw badInput(`${detail.path} ${detail.message}`, [detail]);
}
