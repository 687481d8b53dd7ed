import { fieldOf, numberOf } from './fix-evidence.js';
import { absoluteUrl, plural, type FixRuleContext } from './fix-rule-context.js';
import { phraseFromPath, shorten } from './markup-text.js';
import { brandOf } from './title-proposal.js';

/**
 * Fixes for the structured data, hreflang, viewport, social, AMP and pagination checks of
 * structured-international-checks.ts: each built from the occurrence's evidence and the page digest.
 */
export const RESPONSIVE_VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** A fix for bad hreflang, amphtml or rel=next/prev targets: the targets and what each answered. */
export function targetFix(ctx: FixRuleContext, what: string, action: string) {
  const targets = ctx.evidence.records('targets', 5);
  return {
    summary: `Fix ${plural(targets.length || 1, what)} that do${targets.length === 1 ? 'es' : ''} not answer 200`,
    steps: [
      ...targets.map(
        (target) =>
          `${fieldOf(target, 'label') ?? what} → ${shorten(fieldOf(target, 'url') ?? '', 140)}: ` +
          `${fieldOf(target, 'reason') ?? `status ${numberOf(target, 'status') ?? 'unknown'}`}.`,
      ),
      `${action} (the final URL for a redirect), or remove the link when the target no longer exists.`,
    ],
  };
}

export function jsonLdScript(value: unknown): string {
  return `<script type="application/ld+json">\n${JSON.stringify(value, null, 2).replace(/</g, '\\u003c')}\n</script>`;
}

export function pageTitle(ctx: FixRuleContext): string {
  return ctx.page?.title ?? ctx.page?.h1[0] ?? (phraseFromPath(ctx.path) || '…');
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The absolute form of the relative logo the evidence names ("logo is not an absolute URL: /img/logo.png"). */
export function absoluteLogo(problems: string[], ctx: FixRuleContext): string | null {
  const written = problems.find((problem) => problem.startsWith('logo'))?.split(': ')[1];
  return written ? absoluteUrl(written.replace(/^"|"$/g, ''), ctx.url) : null;
}

/** A BreadcrumbList for the page from its URL path: home, each directory, the page. */
export function breadcrumbFromPath(ctx: FixRuleContext): Record<string, unknown> {
  const segments = ctx.path.split('?')[0].split('/').filter(Boolean);
  const crumbs = [{ name: brandOf(ctx.page, ctx.url), url: `${ctx.origin}/` }];
  segments.forEach((segment, index) => {
    crumbs.push({
      name: phraseFromPath(`/${segment}`) || segment,
      url: `${ctx.origin}/${segments.slice(0, index + 1).join('/')}${index < segments.length - 1 ? '/' : ''}`,
    });
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: crumb.url,
    })),
  };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** An ISO date from common written forms ("March 3, 2024", "3 March 2024", "2024/03/03"); null when unsure. */
export function isoFrom(value: string): string | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  const ymd = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(value.trim());
  if (ymd) return `${ymd[1]}-${pad(Number(ymd[2]))}-${pad(Number(ymd[3]))}`;
  const words = /^(?:([a-z]+)\.? (\d{1,2}),? (\d{4})|(\d{1,2}) ([a-z]+)\.? (\d{4}))$/i.exec(value.trim());
  if (!words) return null;
  const monthName = (words[1] ?? words[5]).slice(0, 3).toLowerCase();
  const month = MONTHS.indexOf(monthName) + 1;
  const day = Number(words[2] ?? words[4]);
  if (month === 0 || day < 1 || day > 31) return null;
  return `${words[3] ?? words[6]}-${pad(month)}-${pad(day)}`;
}
