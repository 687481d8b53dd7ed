import { type FixRuleContext } from './fix-rule-context.js';
import { shorten } from './markup-text.js';

/** Browser rendering mode: the raw HTML against the rendered page (src/seo/checks/rendering-checks.ts). */
/** "Next.js, Nuxt…": where the server-rendered head is written, in a sentence the steps share. */
export const SSR_HINT =
  'In a framework app this is the server-rendered head: Next.js metadata or next/head, Nuxt useHead/useSeoMeta, ' +
  'Angular Meta/Title with server rendering, or react-helmet with a prerenderer.';

export function quoted(value: string | null, fallback: string): string {
  return value === null ? fallback : `"${shorten(value, 120)}"`;
}

export function sideVerdicts(ctx: FixRuleContext, fallbackRaw: string, fallbackRendered: string): [string, string] {
  return [ctx.evidence.string('raw') ?? fallbackRaw, ctx.evidence.string('rendered') ?? fallbackRendered];
}

/** The folder of a resource URL, for an Allow rule ("/static/js/"); null when it does not parse. */
export function folderOf(url: string): string | null {
  try {
    const path = new URL(url).pathname;
    return path.slice(0, path.lastIndexOf('/') + 1) || '/';
  } catch {
    return null;
  }
}
