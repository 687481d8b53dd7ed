import type { HeaderMap } from './page-facts.types.js';

/** All values of a header, case-insensitive name; repeated headers and arrays are flattened. */
export function headerValues(headers: HeaderMap | undefined, name: string): string[] {
  if (!headers) return [];
  const wanted = name.toLowerCase();
  const out: string[] = [];
  for (const key in headers) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    if (Array.isArray(value)) out.push(...value);
    else if (typeof value === 'string') out.push(value);
  }
  return out;
}

export function firstHeader(headers: HeaderMap | undefined, name: string): string | null {
  return headerValues(headers, name)[0] ?? null;
}

/** `charset` parameter of a Content-Type value, lowercased; null when absent. */
export function charsetOf(contentType: string | null): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match ? match[1].toLowerCase() : null;
}

/** Whether a Content-Type names an HTML document (text/html or XHTML), whatever its parameters. */
export function isHtmlContentType(contentType: string | null | undefined): boolean {
  return !!contentType && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}
