import { normalizeUrl, type PageFacts } from '../page/index.js';

/**
 * `<meta http-equiv="refresh" content="5; url=/next">` (HTML's "shared declarative refresh steps"): a delay, then an
 * optional URL. Null when the content does not start with a number (browsers ignore it then).
 */
export function parseRefresh(content: string, baseUrl: string): { delay: number; target: string | null } | null {
  const match = /^\s*(\d+)(?:\.\d*)?\s*(?:[;,]\s*(?:url\s*=\s*)?(.*))?$/is.exec(content);
  if (!match) return null;
  const delay = Number(match[1]);
  const raw = match[2]?.trim().replace(/^(['"])(.*)\1$/s, '$2');
  if (!raw) return { delay, target: null };
  try {
    return { delay, target: new URL(raw, baseUrl).href };
  } catch {
    return { delay, target: raw };
  }
}

/**
 * The URL an instant meta refresh (no delay) sends the page to, when that is another URL: the page is a redirect
 * stub (a language negotiation page, a moved page), which search engines treat as a redirect, not as a page of its
 * own. Null for a timed refresh, a reload of the same URL, or no refresh.
 */
export function refreshRedirectTarget(facts: PageFacts, pageUrl: string): string | null {
  if (facts.metaRefresh === null) return null;
  const refresh = parseRefresh(facts.metaRefresh, facts.baseUrl);
  if (!refresh || refresh.delay !== 0 || refresh.target === null) return null;
  const target = normalizeUrl(refresh.target);
  return target !== null && target !== normalizeUrl(pageUrl) ? refresh.target : null;
}
