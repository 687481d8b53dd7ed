import type { AuditOutcome, AuditPageRow } from '../audits/index.js';
import type { AppConfig } from '../platform/config.js';
import { DomainError } from '../platform/errors.js';
import type { SafeHttpClient } from '../platform/safe-http/index.js';
import type { CrawlProgress } from '../crawler/index.js';
import type { AuditCommandOptions } from './audit-types.js';
import { judgeRun, prepareGate, reportGate } from './audit-gate.js';
import { auditSettings, checkScopeOfStart, loginOf, type AuditSettings } from './audit-options.js';
import { printAuditRun } from './audit-output.js';
import { EXIT, config, lazy, print, type CliRoot } from './cli-runtime.js';

type Crawler = typeof import('../crawler/index.js');

/** The site could not be audited: exit code 2 and the reason, never a score. */
function failed(settings: AuditSettings, target: string, reason: string, pagesCrawled = 0, pagesFailed = 0): void {
  if (settings.format === 'text' && process.stderr.isTTY) process.stderr.write('\n');
  if (settings.json)
    print({ url: target, status: 'FAILED', error: reason, pagesCrawled, pagesFailed, scores: null, issues: [] });
  process.stderr.write(`audit failed: ${reason}\n`);
  process.exitCode = EXIT.failed;
}

/** The client the crawl goes through: signed in first with --login (null when the login failed, said as such). */
async function crawlClientFor(
  client: SafeHttpClient,
  url: string,
  opts: AuditCommandOptions,
  settings: AuditSettings,
  crawler: Crawler,
): Promise<SafeHttpClient | null> {
  if (!opts.login) return client;
  // A login crawl signs in first (a failed login fails the audit, exit code 2) and crawls with the credentials.
  const login = loginOf(crawler.validateCrawlLogin, url, opts);
  try {
    return await crawler.openCrawlSession(client, login, { startUrl: url, includeSubdomains: opts.subdomains });
  } catch (err) {
    if (!(err instanceof crawler.CrawlLoginFailure)) throw err;
    failed(settings, url, err.message);
    return null;
  }
}

/** The lab meter (CHROMIUM_PATH) and, with --render browser, the page renderer: each only when it can be made. */
async function browsersFor(cfg: AppConfig, opts: AuditCommandOptions, client: SafeHttpClient, crawler: Crawler) {
  const [{ createLabMeter }, { parseResolvePins }, { rendererChromiumPath }] = await Promise.all([
    lazy.technical(),
    lazy.safeHttp(),
    lazy.config(),
  ]);
  const meter = cfg.CHROMIUM_PATH
    ? createLabMeter({
        chromiumPath: cfg.CHROMIUM_PATH,
        userAgent: cfg.CRAWLER_USER_AGENT,
        hostPins: parseResolvePins(cfg.SAFE_HTTP_RESOLVE),
      })
    : null;
  // Browser rendering (--render browser) loads its code only then; without a Chromium the engine fails the audit.
  const renderChromium = rendererChromiumPath(cfg);
  const renderer =
    opts.render === 'browser' && renderChromium
      ? (await crawler.loadBrowserRendering()).createPageRenderer({
          chromiumPath: renderChromium,
          client,
          pages: cfg.RENDER_PAGES,
          timeoutMs: cfg.RENDER_TIMEOUT_MS,
        })
      : undefined;
  return { meter, renderer };
}

/** What the engine reports as it goes: 5 example URLs per code, every occurrence when `keepAll`. */
function collector(settings: AuditSettings, keepAll: boolean) {
  const examples = new Map<string, string[]>();
  /** Every occurrence the engine reports, by code, in the order it found them (when keepAll). */
  const occurrences = new Map<string, { url: string; evidence: unknown }[]>();
  const occurrencesSink = async (rows: { code: string; url: string; evidence: unknown }[]) => {
    for (const r of rows) {
      if (keepAll) {
        const all = occurrences.get(r.code) ?? [];
        all.push({ url: r.url, evidence: r.evidence });
        occurrences.set(r.code, all);
      }
      const list = examples.get(r.code) ?? [];
      if (list.length < 5 && !list.includes(r.url)) list.push(r.url);
      examples.set(r.code, list);
    }
  };
  const progress = async (p: CrawlProgress) => {
    if (settings.format !== 'text' || !process.stderr.isTTY) return;
    const external = p.externalLinks;
    process.stderr.write(
      external
        ? `\rcrawled ${p.pagesCrawled} pages; external links checked ${external.checked} of ${external.found}   `
        : `\rcrawled ${p.pagesCrawled} pages, ${p.pagesQueued} queued   `,
    );
  };
  /** The pages with links past the per-page cap (few, if any): the note names them. */
  const linksNotReadPages: { url: string; linkCount: number; linksNotRead: number }[] = [];
  const pagesSink = async (rows: AuditPageRow[]) => {
    for (const row of rows)
      if (row.details?.linksNotRead)
        linksNotReadPages.push({
          url: row.url,
          linkCount: row.details.linkCount ?? 0,
          linksNotRead: row.details.linksNotRead,
        });
  };
  return { examples, occurrences, occurrencesSink, pagesSink, linksNotReadPages, progress };
}

/** `seo audit <url>`: the platform's engine run once on a site, no database (but for a --baseline audit id). */
export async function runAudit(root: CliRoot, rawUrl: string, opts: AuditCommandOptions): Promise<void> {
  const cfg = await config();
  const [audits, crawler, { parseProjectUrl, resolveStartUrl }, { createConfiguredSafeHttpClient }, gate] =
    await Promise.all([lazy.audits(), lazy.crawler(), lazy.projects(), lazy.safeHttp(), lazy.ciGate()]);
  const parsed = parseProjectUrl(rawUrl);
  const settings = auditSettings(opts, crawler);
  const gateInput = await prepareGate(root, cfg, opts, gate);
  // Every occurrence is kept when something reads them all: the JSON, the comparison, the reports, the file.
  const keepAll = Boolean(opts.allOccurrences || gateInput.baseline || opts.writeJson || settings.format !== 'text');
  const client = createConfiguredSafeHttpClient(cfg);
  // A bare domain (example.com, host:8080) is audited on the scheme it answers on, https first, as for a project.
  let url: string;
  try {
    ({ url } = await resolveStartUrl(parsed, client));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    failed(settings, parsed.url, err.message);
    return;
  }
  checkScopeOfStart(url, settings, opts, crawler.compileCrawlScope);
  const crawlClient = await crawlClientFor(client, url, opts, settings, crawler);
  if (!crawlClient) return;
  const { meter, renderer } = await browsersFor(cfg, opts, client, crawler);
  const collected = collector(settings, keepAll);
  try {
    const outcome: AuditOutcome | null = await audits
      .runAuditEngine(
        crawlClient,
        // The worker's own options for a project with these settings: both compute scores over the same facts.
        audits.auditCrawlOptions({
          startUrl: url,
          maxPages: settings.maxPages,
          settings: { maxDepth: settings.maxDepth, renderingMode: opts.render, ...settings.scopeSettings },
          userAgent: cfg.CRAWLER_USER_AGENT,
        }),
        {
          pages: collected.pagesSink,
          everyLinkInEvidence: Boolean(opts.allOccurrences || opts.writeJson),
          occurrences: collected.occurrencesSink,
          progress: collected.progress,
        },
        meter ? (urls) => meter.measure(urls) : undefined,
        undefined,
        undefined,
        renderer,
      )
      .catch((err: unknown) => {
        if (!(err instanceof audits.AuditFailedError)) throw err;
        failed(settings, url, err.message, err.pagesCrawled, err.pagesFailed);
        return null;
      });
    if (!outcome) return;
    if (settings.format === 'text' && process.stderr.isTTY) process.stderr.write('\n');
    const result = judgeRun(gate, gateInput, outcome, collected.occurrences, opts.failUnder);
    await printAuditRun(
      {
        url,
        opts,
        settings,
        outcome,
        examples: collected.examples,
        occurrences: collected.occurrences,
        gateInput,
        gate: result,
        externalLinkBudget: crawler.DEFAULT_CRAWL_OPTIONS.externalLinkBudget,
        linksNotReadPages: collected.linksNotReadPages,
      },
      gate,
    );
    reportGate(result, outcome, opts.failUnder);
  } finally {
    await meter?.close();
    await renderer?.close();
    await client.close();
  }
}
