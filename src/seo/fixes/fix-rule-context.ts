import { FixEvidence } from './fix-evidence.js';
import type { FixInput, FixPageContext, FixProposal } from './fix.types.js';
import { shorten } from './markup-text.js';

/** What one rule sees: the input, its evidence reader and the URL taken apart. */
export interface FixRuleContext {
  /** A catalog code (a string here, so no fix helper depends on the catalog derived from the definitions). */
  code: string;
  url: string;
  page: FixPageContext | null;
  evidence: FixEvidence;
  /** "https://example.com", or "" when the URL does not parse. */
  origin: string;
  host: string;
  /** Path and query of the URL ("/" when it does not parse). */
  path: string;
  https: boolean;
}

export type FixRule = (ctx: FixRuleContext) => FixProposal;

export function ruleContext(input: FixInput): FixRuleContext {
  let parsed: URL | null;
  try {
    parsed = new URL(input.url);
  } catch {
    parsed = null;
  }
  return {
    code: input.code,
    url: input.url,
    page: input.page,
    evidence: new FixEvidence(input.evidence),
    origin: parsed && parsed.origin !== 'null' ? parsed.origin : '',
    host: parsed?.hostname ?? '',
    path: parsed ? `${parsed.pathname}${parsed.search}` : '/',
    https: parsed?.protocol === 'https:',
  };
}

/** Path and query of an absolute URL (the URL itself when it does not parse). */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** Absolute form of `ref` against `base`; null when unresolvable. */
export function absoluteUrl(ref: string, base: string): string | null {
  try {
    return new URL(ref, base).href;
  } catch {
    return null;
  }
}

/** "a, b and 3 more": a short inline list of quoted values for a sentence. */
export function inlineList(values: readonly string[], total = values.length, max = 3): string {
  const shown = values.slice(0, max).map((value) => `"${shorten(value, 80)}"`);
  const rest = Math.max(total, values.length) - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "1,234" for counts, "245 KiB" for bytes, "3.2 s" for milliseconds. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** The page's title or h1 for sentences ("the page" when it has neither). */
export function pageName(ctx: FixRuleContext): string {
  const name = ctx.page?.h1[0] ?? ctx.page?.title;
  return name ? `"${shorten(name, 70)}"` : ctx.path === '/' ? 'the home page' : `the page ${shorten(ctx.path, 80)}`;
}
