/**
 * Lighthouse's SEO category, run in Debian's Chromium on the pages the accuracy bench samples, and the verdict of
 * each of its audits on a page set against ours: the codes of ours that say the same thing.
 */

/** A Lighthouse SEO audit and the codes of ours that fail a page where it does. */
export interface AuditMapping {
  id: string;
  /** Our codes: the page fails when any of them has an occurrence on it. */
  codes: readonly string[];
  /** Site-level: a code that fires anywhere fails every page (Lighthouse judges robots.txt from each page). */
  site?: true;
  /** What Lighthouse checks, and where our rule is narrower or wider. */
  note: string;
}

export const AUDIT_MAPPINGS: readonly AuditMapping[] = [
  {
    id: 'is-crawlable',
    codes: ['TECH_NOINDEX', 'TECH_BLOCKED_BY_ROBOTS'],
    note: 'noindex in meta robots or X-Robots-Tag, or the page disallowed by robots.txt',
  },
  { id: 'document-title', codes: ['META_TITLE_MISSING'], note: 'no <title>, or an empty one' },
  { id: 'meta-description', codes: ['META_DESCRIPTION_MISSING'], note: 'no meta description, or an empty one' },
  { id: 'http-status-code', codes: ['TECH_STATUS_4XX', 'TECH_STATUS_5XX'], note: 'the page answers 4xx or 5xx' },
  {
    id: 'link-text',
    codes: ['CONTENT_LINK_TEXT_GENERIC'],
    note: 'a followed link with a generic text ("click here", "more"…), anchors to the page itself excepted',
  },
  {
    id: 'crawlable-anchors',
    codes: ['LINKS_UNCRAWLABLE'],
    note: 'an <a> whose href is javascript:void, file:, unparseable, or missing with a click listener',
  },
  {
    id: 'robots-txt',
    codes: ['TECH_ROBOTS_INVALID', 'TECH_ROBOTS_UNREACHABLE'],
    site: true,
    note: 'robots.txt answers 5xx or has lines that do not parse',
  },
  { id: 'image-alt', codes: ['CONTENT_IMAGE_ALT_MISSING'], note: 'an <img> without an alt attribute (axe-core)' },
  {
    id: 'hreflang',
    codes: ['META_HREFLANG_INVALID', 'META_HREFLANG_RELATIVE'],
    note: 'an hreflang value that is not a language code, or a relative hreflang href',
  },
  {
    id: 'canonical',
    codes: ['TECH_CANONICAL_MULTIPLE', 'TECH_CANONICAL_RELATIVE'],
    note: 'conflicting canonicals, an invalid or relative one, one to the domain root or another hreflang locale',
  },
];

/**
 * Our checks near a Lighthouse audit whose rule differs, so that their verdicts are not compared: listed in the report
 * with the reason, never silently left out.
 */
export const UNMAPPED_CODES: readonly { code: string; near: string; why: string }[] = [
  {
    code: 'TECH_CANONICAL_INVALID',
    near: 'canonical',
    why: 'a canonical that is not an http(s) URL (file:…); Lighthouse accepts any URL that parses',
  },
  {
    code: 'TECH_CANONICAL_OTHER_HOST',
    near: 'canonical',
    why: 'a canonical on another host; Lighthouse passes cross-domain canonicals',
  },
  {
    code: 'CONTENT_IMAGE_ALT_FILENAME',
    near: 'image-alt',
    why: 'an alt text that is a file name; axe-core accepts any alt attribute',
  },
];

/** Lighthouse's verdict of one audit on one page: pass, fail, or none (not applicable, manual, error). */
export type LhVerdict = 'pass' | 'fail' | null;

export interface LhPageResult {
  url: string;
  verdicts: Record<string, LhVerdict>;
  /** Lighthouse's explanation or first failing items, per audit that failed: what a reader checks by hand. */
  details: Record<string, string>;
  /** Why Lighthouse could not judge the page (a runtime error), or null. */
  error: string | null;
}

interface LhAudit {
  score: number | null;
  scoreDisplayMode: string;
  explanation?: string;
  errorMessage?: string;
  details?: { items?: Record<string, unknown>[] };
}

/** What a failed audit says, shortened: its explanation, else its first items' text, href or node snippet. */
function failureDetail(audit: LhAudit): string {
  if (audit.explanation) return audit.explanation;
  const items = audit.details?.items ?? [];
  const shown = items.slice(0, 3).map((item) => {
    const node = item.node as { snippet?: string } | undefined;
    if (node?.snippet) return node.snippet;
    return [item.text, item.href, item.source].filter((v) => typeof v === 'string' && v).join(' → ');
  });
  return `${shown.join(' | ')}${items.length > 3 ? ` (+${items.length - 3})` : ''}`;
}

export interface LighthouseRunner {
  run(url: string): Promise<LhPageResult>;
  close(): Promise<void>;
}

/**
 * One Chromium for every run (Debian's, through chrome-launcher; never a downloaded one), with every host name but
 * 127.0.0.1 mapped to nothing: a page's reference to another host fails at once, and no lookup leaves the machine.
 */
export async function startLighthouse(chromePath: string): Promise<LighthouseRunner> {
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
  ]);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
    logLevel: 'silent',
  });
  const mapped = new Set(AUDIT_MAPPINGS.map((m) => m.id));
  return {
    async run(url) {
      try {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['seo'],
          // Desktop: no 4x CPU slow-down or mobile network emulation; the SEO audits read the DOM, not timings.
          formFactor: 'desktop',
          screenEmulation: { disabled: true },
          throttlingMethod: 'provided',
          disableFullPageScreenshot: true,
        });
        const audits = (result?.lhr.audits ?? {}) as Record<string, LhAudit>;
        const verdicts: Record<string, LhVerdict> = {};
        const details: Record<string, string> = {};
        for (const id of mapped) {
          const audit = audits[id];
          if (!audit || audit.scoreDisplayMode !== 'binary' || audit.score === null) verdicts[id] = null;
          else verdicts[id] = audit.score >= 1 ? 'pass' : 'fail';
          if (verdicts[id] === 'fail') details[id] = failureDetail(audit);
        }
        const runtimeError = (result?.lhr as { runtimeError?: { message?: string } } | undefined)?.runtimeError;
        return { url, verdicts, details, error: runtimeError?.message ?? null };
      } catch (err) {
        return { url, verdicts: {}, details: {}, error: (err as Error).message };
      }
    },
    async close() {
      chrome.kill();
    },
  };
}
