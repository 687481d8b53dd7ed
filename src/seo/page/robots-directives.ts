import type { RobotsDirectives } from './page-facts.types.js';

/** Directive names that may themselves contain a colon; anything else before ":" names a user agent. */
const COLON_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

interface Flags {
  noindex: boolean;
  nofollow: boolean;
}

/** Parses one robots directive list ("noindex, nofollow", "none"). */
export function parseRobotsContent(content: string): Flags {
  const flags = { noindex: false, nofollow: false };
  for (const raw of content.split(',')) {
    const directive = raw.trim().toLowerCase();
    if (directive === 'noindex' || directive === 'none') flags.noindex = true;
    if (directive === 'nofollow' || directive === 'none') flags.nofollow = true;
  }
  return flags;
}

/**
 * X-Robots-Tag values may be prefixed by a user agent ("googlebot: noindex"); only the generic form and
 * googlebot's apply to us, as Google is the engine being emulated.
 */
export function parseXRobotsTag(value: string): Flags {
  const match = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/is.exec(value);
  if (match && !COLON_DIRECTIVES.has(match[1].toLowerCase())) {
    const agent = match[1].toLowerCase();
    if (agent !== 'googlebot' && agent !== '*') return { noindex: false, nofollow: false };
    return parseRobotsContent(match[2]);
  }
  return parseRobotsContent(value);
}

export function buildRobotsDirectives(meta: string[], googlebotMeta: string[], header: string[]): RobotsDirectives {
  const result: RobotsDirectives = { meta, googlebotMeta, header, noindex: false, nofollow: false, noindexSources: [] };
  const apply = (flags: Flags, source: RobotsDirectives['noindexSources'][number]): void => {
    if (flags.noindex && !result.noindexSources.includes(source)) result.noindexSources.push(source);
    result.noindex ||= flags.noindex;
    result.nofollow ||= flags.nofollow;
  };
  for (const content of meta) apply(parseRobotsContent(content), 'meta');
  for (const content of googlebotMeta) apply(parseRobotsContent(content), 'googlebot-meta');
  for (const value of header) apply(parseXRobotsTag(value), 'header');
  return result;
}
