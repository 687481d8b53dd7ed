import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intFromEnv } from './audit-bench-context.js';
import { SiteProcess } from './audit-site-client.js';
import { externalHosts, startOutsideWeb, type OutsideWeb } from './outside-web.js';
import {
  AUDIT_MAPPINGS,
  UNMAPPED_CODES,
  startLighthouse,
  type LhPageResult,
  type LighthouseRunner,
} from './accuracy-lighthouse.js';
import { fixedSample, htmlPaths, manualSites, missingSite, type ManualSite } from './accuracy-sites.js';
import { linkReviewOf, reviewOf } from './accuracy-verdicts.js';
import {
  formatAccuracyReport,
  type AccuracyReport,
  type Disagreement,
  type LinkComparison,
  type SiteAccuracy,
} from './accuracy-report.js';

/**
 * `npm run bench -- accuracy`: are our findings true? Debian's HTML manuals (hand-written sites; BENCH_ACCURACY_SITES,
 * see accuracy-sites.ts) are served on 127.0.0.1 and audited by our engine (`seo audit`, the function the worker
 * runs), then judged by two tools of the field on the same pages:
 *
 * - Lighthouse's SEO category (the `lighthouse` package in Debian's Chromium) on a fixed sample of each site's pages
 *   (BENCH_ACCURACY_SAMPLE, 20): per audit, the share of pages where its verdict and ours agree (our codes that say
 *   the same thing: accuracy-lighthouse.ts). Goal: ≥ 99%.
 * - linkinator, crawling the whole site: its broken links (same-site targets, every kind: pages, images, styles,
 *   scripts) against ours; precision and recall. Goal: P = R = 100%.
 *
 * Every disagreement is listed, with who is right where a person has reviewed that kind of case
 * (accuracy-verdicts.ts) and "not reviewed" otherwise. The external hosts the manuals link to are answered on this
 * machine (outside-web.ts); nothing is sent elsewhere, not even a DNS query. Reported, not enforced: the bench fails
 * only when a tool could not run.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const log = (line: string) => process.stderr.write(`[bench:accuracy] ${line}\n`);

/** Our codes whose occurrences name a broken same-site target, and the evidence field holding it. */
const BROKEN_TARGET_CODES = ['LINKS_INTERNAL_BROKEN', 'CONTENT_IMAGE_BROKEN', 'TECH_RESOURCE_BROKEN'];

interface OurOccurrence {
  url: string;
  evidence?: Record<string, unknown> | null;
}
interface OurIssue {
  code: string;
  occurrences?: OurOccurrence[];
}
interface OurAudit {
  status: string;
  error: string | null;
  pagesCrawled: number;
  counts?: { htmlPages: number } | null;
  scores: { overall: number } | null;
  issues: OurIssue[];
}

/** A URL as both sides are compared: absolute, without its fragment. */
function normalUrl(url: string, base?: string): string | null {
  try {
    const u = new URL(url, base);
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** Our audit of the site, by the CLI (the engine the worker runs), with every occurrence of every issue. */
async function ourAudit(startUrl: string, env: Record<string, string>, dir: string): Promise<OurAudit> {
  const out = join(dir, 'ours.json');
  const args = ['--import', 'tsx', 'src/cli.ts', 'audit', startUrl, '--max-pages', '10000', '--write-json', out];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Lab vitals are not what this bench judges: without a Chromium the audit measures HTTP timings only. The CLI
    // needs no auth secret outside production (run.ts sets NODE_ENV=production for the benches that time things).
    env: { ...process.env, ...env, NODE_ENV: 'development', CHROMIUM_PATH: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Exit code 1 is a finding (a gate), not a failure: the file is what counts.
  let audit: OurAudit;
  try {
    audit = JSON.parse(readFileSync(out, 'utf8')) as OurAudit;
  } catch {
    throw new Error(`our audit wrote no result (exit ${code}): ${stderr.trim()}`);
  }
  if (audit.status !== 'COMPLETED') throw new Error(`our audit ended ${audit.status}: ${audit.error ?? ''}`);
  return audit;
}

interface LinkinatorRun {
  /** Same-site URLs that answered, without fragments. */
  ok: Set<string>;
  /** Same-site targets linkinator found broken (an HTTP status), with a page that links to each. */
  broken: Map<string, string>;
  /** Same-site targets linkinator's requests failed on (status 0, even after its retries): not judged. */
  failed: Map<string, string>;
}

async function runLinkinator(startUrl: string, origin: string): Promise<LinkinatorRun> {
  const { LinkChecker } = await import('linkinator');
  const result = await new LinkChecker().check({
    path: startUrl,
    recurse: true,
    concurrency: 16,
    // No timer: the site is served from memory on this machine and answers every request, while linkinator 7.6's
    // timeout aborts a body stream that nobody listens to, an unhandled 'error' that ends the process.
    timeout: 0,
    retryErrors: true,
    retryErrorsCount: 3,
    // The same site only: external links are our outside web's, which answers every one.
    linksToSkip: async (link: string) => !link.startsWith(`${origin}/`) && link !== origin,
  });
  const ok = new Set<string>();
  const broken = new Map<string, string>();
  const failed = new Map<string, string>();
  for (const link of result.links) {
    const url = normalUrl(link.url);
    if (!url || !url.startsWith(`${origin}/`)) continue;
    if (link.state === 'OK') ok.add(url);
    else if (link.state !== 'BROKEN') continue;
    // Status 0: linkinator's own request failed (no answer read), which says nothing of the link.
    else if (!link.status) failed.set(url, link.parent ?? '');
    else if (!broken.has(url)) broken.set(url, link.parent ?? '');
  }
  for (const url of ok) failed.delete(url);
  return { ok, broken, failed };
}

/** The same-site targets our audit reports broken, with a page that links to each. */
function ourBrokenTargets(audit: OurAudit, origin: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const issue of audit.issues) {
    if (!BROKEN_TARGET_CODES.includes(issue.code)) continue;
    for (const occurrence of issue.occurrences ?? []) {
      const evidence = occurrence.evidence ?? {};
      const raw = [evidence.target, evidence.targetUrl, evidence.url, evidence.src, evidence.href].find(
        (v): v is string => typeof v === 'string' && v !== occurrence.url,
      );
      // Broken images list theirs under `images` (CONTENT_IMAGE_BROKEN): gtk3's help-about.png was read as missed.
      const listed = [evidence.targets, evidence.links, evidence.resources, evidence.images].flatMap((v) =>
        Array.isArray(v) ? (v as unknown[]) : [],
      );
      for (const candidate of [raw, ...listed]) {
        const value =
          typeof candidate === 'string'
            ? candidate
            : ((candidate as { url?: string; target?: string } | undefined)?.url ??
              (candidate as { target?: string } | undefined)?.target);
        const url = value ? normalUrl(value, occurrence.url) : null;
        if (url?.startsWith(`${origin}/`) && !targets.has(url)) targets.set(url, occurrence.url);
      }
    }
  }
  return targets;
}

/**
 * Precision and recall of our broken links against linkinator's, as measured, and after the differences a person has
 * reviewed (accuracy-verdicts.ts): a link only one side reports, where the other side is right, leaves the set.
 */
function compareLinks(ours: Map<string, string>, linkinator: LinkinatorRun): LinkComparison {
  const theirs = linkinator.broken;
  const both = [...ours.keys()].filter((url) => theirs.has(url)).length;
  const onlyOurs = [...ours]
    .filter(([url]) => !theirs.has(url))
    .map(([url, page]) => ({ url, page, review: linkReviewOf('ours', url) }));
  const onlyLinkinator = [...theirs]
    .filter(([url]) => !ours.has(url))
    .map(([url, page]) => ({ url, page, review: linkReviewOf('linkinator', url) }));
  const oursKept = ours.size - onlyOurs.filter((x) => x.review?.right === 'linkinator').length;
  const theirsKept = theirs.size - onlyLinkinator.filter((x) => x.review?.right === 'ours').length;
  return {
    ours: ours.size,
    linkinator: theirs.size,
    both,
    precision: ours.size ? both / ours.size : 1,
    recall: theirs.size ? both / theirs.size : 1,
    reviewedPrecision: oursKept ? both / oursKept : 1,
    reviewedRecall: theirsKept ? both / theirsKept : 1,
    onlyOurs,
    onlyLinkinator,
    linkinatorFailed: [...linkinator.failed].map(([url, page]) => ({ url, page })),
  };
}

/** Our verdict on a page: the codes of the mapping that fire on it (site-level: anywhere). */
function ourCodesOn(pageUrl: string, codes: readonly string[], site: boolean, byCode: Map<string, Set<string>>) {
  return codes.filter((code) => {
    const pages = byCode.get(code);
    return pages ? site || pages.has(pageUrl) : false;
  });
}

async function judgeSite(
  site: ManualSite,
  lighthouse: LighthouseRunner,
  outside: OutsideWeb,
  sampleSize: number,
): Promise<SiteAccuracy> {
  const server = await SiteProcess.serveDirectory(site.root);
  const dir = mkdtempSync(join(tmpdir(), 'bench-accuracy-'));
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const startUrl = `${origin}${site.start}`;
    log(`${site.name}: ${site.root} on ${origin}`);
    const env = outside.env({ SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: '' });
    env.SAFE_HTTP_RESOLVE = env.SAFE_HTTP_RESOLVE.replace(/^,/, '');
    const started = Date.now();
    const audit = await ourAudit(startUrl, env, dir);
    log(`${site.name}: our audit: ${audit.pagesCrawled} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const links = await runLinkinator(startUrl, origin);
    const files = new Set(htmlPaths(site.root));
    const reachable = [...links.ok]
      .filter((url) => files.has(decodeURIComponent(new URL(url).pathname).replace(/(^|\/)index\.html$/, '$1')))
      .sort();
    log(`${site.name}: linkinator: ${reachable.length} HTML pages, ${links.broken.size} broken same-site targets`);

    const byCode = new Map<string, Set<string>>();
    for (const issue of audit.issues)
      byCode.set(issue.code, new Set((issue.occurrences ?? []).map((o) => normalUrl(o.url) ?? o.url)));

    const sample = fixedSample(reachable, sampleSize);
    const perAudit = new Map<string, { agree: number; judged: number }>(
      AUDIT_MAPPINGS.map((m) => [m.id, { agree: 0, judged: 0 }]),
    );
    const disagreements: Disagreement[] = [];
    const lhErrors: string[] = [];
    for (const [i, url] of sample.entries()) {
      const result: LhPageResult = await lighthouse.run(url);
      if (result.error) lhErrors.push(`${url}: ${result.error}`);
      for (const mapping of AUDIT_MAPPINGS) {
        const lh = result.verdicts[mapping.id];
        if (!lh) continue;
        const codes = ourCodesOn(url, mapping.codes, mapping.site === true, byCode);
        const ours = codes.length ? 'fail' : 'pass';
        const tally = perAudit.get(mapping.id)!;
        tally.judged++;
        if (ours === lh) {
          tally.agree++;
          continue;
        }
        const case_ = { site: site.name, audit: mapping.id, url, ours, lighthouse: lh } as const;
        disagreements.push({
          ...case_,
          ourCodes: codes,
          lighthouseSays: result.details[mapping.id] ?? '',
          review: reviewOf(case_),
        });
      }
      if ((i + 1) % 5 === 0) log(`${site.name}: Lighthouse ${i + 1}/${sample.length} pages`);
    }
    return {
      site: site.name,
      root: site.root,
      ourPages: audit.pagesCrawled,
      ourHtmlPages: audit.counts?.htmlPages ?? null,
      ourScore: audit.scores?.overall ?? null,
      linkinatorPages: reachable.length,
      sampled: sample.length,
      perAudit: [...perAudit].map(([id, t]) => ({ id, ...t })),
      disagreements,
      links: compareLinks(ourBrokenTargets(audit, origin), links),
      unmapped: UNMAPPED_CODES.map((u) => ({ code: u.code, pages: byCode.get(u.code)?.size ?? 0 })),
      lighthouseErrors: lhErrors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

export async function runAccuracyBench(): Promise<{ ok: boolean }> {
  const sites = manualSites();
  const missing = sites.map(missingSite).filter((m): m is string => m !== null);
  if (missing.length) throw new Error(`bench accuracy:\n  ${missing.join('\n  ')}`);
  const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const sampleSize = Math.max(1, intFromEnv('BENCH_ACCURACY_SAMPLE', 20));
  const outside = await startOutsideWeb([...new Set(sites.flatMap((s) => externalHosts(s.root)))].sort());
  if (outside.warning) log(outside.warning);
  const lighthouse = await startLighthouse(chromePath);
  try {
    const results: SiteAccuracy[] = [];
    for (const site of sites) results.push(await judgeSite(site, lighthouse, outside, sampleSize));
    const report: AccuracyReport = {
      sites: results,
      sampleSize,
      chromium: chromePath,
      versions: await toolVersions(),
    };
    const { text, json } = formatAccuracyReport(report);
    process.stdout.write(`${text}\n${JSON.stringify(json)}\n`);
    return { ok: results.every((r) => r.lighthouseErrors.length < r.sampled) };
  } finally {
    await lighthouse.close();
    await outside.close();
  }
}

async function toolVersions(): Promise<{ lighthouse: string; linkinator: string }> {
  const read = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return { lighthouse: read('lighthouse'), linkinator: read('linkinator') };
}
