import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aProject, anAudit, anOrg } from '../factories.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { sarifValidator } from '../support/sarif-schema.js';

/**
 * `seo audit --baseline … --fail-on …` as a CI job runs it: the built-in fixture site below is audited once for the
 * baseline, then again as it is (the gate passes) and after a change that adds a page without a title (a new
 * CRITICAL occurrence: the gate fails the build).
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const env = {
  ...process.env,
  LOG_LEVEL: 'silent',
  SAFE_HTTP_ALLOW: '127.0.0.1/32',
  SAFE_HTTP_RESOLVE: 'gate.test=127.0.0.1',
};
const seo = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env, maxBuffer: 16 << 20 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

const words = 'The gate fixture has enough words on every page to pass the checks of thin content. '.repeat(30);
const page = (title: string | null, links: string[]) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  (title === null ? '' : `<title>${title}</title>`) +
  `<meta name="description" content="${title ?? 'Untitled'}: a page of the CI gate fixture site, described.">` +
  `</head><body><h1>${title ?? 'Untitled'}</h1><p>${words}</p>` +
  links.map((l) => `<a href="${l}">Read the page at ${l}</a>`).join(' ') +
  '</body></html>';

/** The site before and after the change under test: `broken` links a new page without a title (/new) and takes
 * /about's title away. */
const site = { broken: false, requests: 0 };
const server = http.createServer((req, res) => {
  site.requests++;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  if (req.url === '/')
    return res.end(
      page('Gate fixture home page of the command line audit', ['/about', ...(site.broken ? ['/new'] : [])]),
    );
  if (req.url === '/about')
    return res.end(page(site.broken ? null : 'About the gate fixture site of the command line audit', ['/']));
  if (req.url === '/new' && site.broken) return res.end(page(null, ['/']));
  res.statusCode = 404;
  res.end('not here');
});

let origin: string;
let dir: string;
let baselineFile: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://gate.test:${(server.address() as { port: number }).port}`;
  dir = mkdtempSync(join(tmpdir(), 'seo-gate-'));
  baselineFile = join(dir, 'baseline.json');
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const audit = (...args: string[]) => seo(['audit', `${origin}/`, '--max-pages', '10', ...args]);

interface Comparison {
  score: { baseline: number; current: number; change: number };
  new: { count: number; occurrences: { code: string; severity: string; url: string }[] };
  fixed: { count: number };
  unchanged: { count: number };
  gate: { rules: string[]; tripped: boolean; verdicts: { rule: string; tripped: boolean; reason: string }[] };
}

describe('seo audit as a CI gate (--baseline, --fail-on)', () => {
  it('--write-json saves every occurrence; the same site against it passes new-error, score-drop:5', async () => {
    site.broken = false;
    const first = await audit('--write-json', baselineFile);
    expect(first.code).toBe(0);
    const saved = JSON.parse(readFileSync(baselineFile, 'utf8'));
    expect(saved).toMatchObject({ url: `${origin}/`, status: 'COMPLETED' });
    expect(saved.issues.length).toBeGreaterThan(0);
    for (const issue of saved.issues) expect(issue.occurrences.length).toBe(issue.affectedPages);

    const again = await audit('--baseline', baselineFile, '--fail-on', 'new-error', '--fail-on', 'score-drop:5');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/--fail-on/);
    expect(again.stdout).toMatch(new RegExp(`compared with ${baselineFile}: 0 new, 0 fixed, \\d+ unchanged`));
  }, 60_000);

  it('a page without a title (a new CRITICAL) fails the build: exit 1, the new issue on stderr', async () => {
    site.broken = true;
    const gated = await audit('--baseline', baselineFile, '--fail-on', 'new-error', '--json');
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(/^seo audit: --fail-on new-error: \d+ new CRITICAL \(error\) occurrence\(s\)$/m);
    expect(gated.stderr).toMatch(new RegExp(`^ {2}CRITICAL META_TITLE_MISSING +${origin}/new$`, 'm'));
    expect(gated.stderr).toMatch(new RegExp(`^ {2}CRITICAL META_TITLE_MISSING +${origin}/about$`, 'm'));
    const { comparison } = JSON.parse(gated.stdout) as { comparison: Comparison };
    expect(comparison.new.occurrences).toContainEqual(
      expect.objectContaining({ code: 'META_TITLE_MISSING', severity: 'CRITICAL', url: `${origin}/new` }),
    );
    expect(comparison.gate).toMatchObject({ rules: ['new-error'], tripped: true });
    // The change costs the score at least 5 points (what the score-drop test below relies on).
    expect(comparison.score.change).toBeLessThanOrEqual(-5);
  }, 60_000);

  it('score-drop:N trips when the score fell by N points or more, and passes below', async () => {
    site.broken = true;
    const dropped = await audit('--baseline', baselineFile, '--fail-on', 'score-drop:5', '--json');
    const { comparison } = JSON.parse(dropped.stdout) as { comparison: Comparison };
    const fell = -comparison.score.change;
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toContain(
      `seo audit: --fail-on score-drop:5: the overall score fell by ${fell} point(s), from ` +
        `${comparison.score.baseline} to ${comparison.score.current}`,
    );
    const tolerated = await audit('--baseline', baselineFile, '--fail-on', `score-drop:${fell + 1}`);
    expect(tolerated.code, tolerated.stderr).toBe(0);
    expect(tolerated.stderr).not.toMatch(/--fail-on/);
  }, 60_000);

  it('--format sarif validates against the SARIF 2.1.0 schema, with baselineState; --format junit parses', async () => {
    site.broken = true;
    const sarif = await audit('--baseline', baselineFile, '--fail-on', 'new-error', '--format', 'sarif');
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const results = log.runs[0].results as {
      ruleId: string;
      level: string;
      baselineState: string;
      locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
    }[];
    expect(results).toContainEqual(
      expect.objectContaining({
        ruleId: 'META_TITLE_MISSING',
        level: 'error',
        baselineState: 'new',
        locations: [{ physicalLocation: { artifactLocation: { uri: `${origin}/new` } } }],
      }),
    );
    expect(results.filter((r) => r.baselineState === 'unchanged').length).toBeGreaterThan(0);
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain('META_TITLE_MISSING');

    const junit = await audit('--baseline', baselineFile, '--fail-on', 'new-error', '--format', 'junit');
    expect(junit.code).toBe(1);
    const failed: string[] = [];
    let testcase = '';
    const parser = new SaxesParser();
    parser.on('opentag', (tag) => {
      if (tag.name === 'testcase') testcase = `${tag.attributes.classname} ${tag.attributes.name}`;
      if (tag.name === 'failure') failed.push(testcase);
    });
    parser.write(junit.stdout).close(); // throws when not well-formed
    expect(failed).toContain(`seo.META_TITLE_MISSING ${origin}/new`);
    expect(failed).toContain('seo.gate new-error');
  }, 90_000);

  it('bad usage exits 2 before any fetch: a bad --fail-on, no baseline, a baseline without occurrences', async () => {
    const before = site.requests;
    // `--json` without --all-occurrences lists 5 examples per issue: refused, never compared on them.
    const examplesOnly = join(dir, 'examples.json');
    const saved = JSON.parse(readFileSync(baselineFile, 'utf8'));
    const withoutOccurrences = saved.issues.map(({ occurrences: _o, ...issue }: Record<string, unknown>) => issue);
    writeFileSync(examplesOnly, JSON.stringify({ ...saved, issues: withoutOccurrences }));
    // Independent commands, none of which may fetch anything: run side by side.
    const [bad, drop, alone, refused, missing] = await Promise.all([
      audit('--baseline', baselineFile, '--fail-on', 'new-errors'),
      audit('--baseline', baselineFile, '--fail-on', 'score-drop:0'),
      audit('--fail-on', 'new-error'),
      audit('--baseline', examplesOnly, '--fail-on', 'new-error'),
      audit('--baseline', join(dir, 'nope.json')),
    ]);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain(
      'error: --fail-on "new-errors" is not a rule; use new-error, new-warning, new-issue or score-drop:<points>.',
    );
    expect(drop.code).toBe(2);
    expect(drop.stderr).toContain('score-drop takes points from more than 0 to 100');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--fail-on new-error compares with a baseline: add --baseline <file|id>.');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /lists examples, not every occurrence: save the baseline with `seo audit <url> --json/,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file (nor an audit id)');
    expect(site.requests).toBe(before);
  }, 90_000);
});

describe('seo audit --baseline <audit-id> (a completed audit of the platform)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reads the audit from the database: the same occurrences pass, a new CRITICAL one fails', async () => {
    // The stored audit holds what the CLI found on the site as it was (the baseline file of the tests above).
    site.broken = false;
    const first = await audit('--write-json', baselineFile);
    expect(first.code).toBe(0);
    const saved = JSON.parse(readFileSync(baselineFile, 'utf8')) as {
      scores: { overall: number };
      issues: { code: string; occurrences: { url: string }[] }[];
    };
    const project = await aProject({ org: await anOrg(t) });
    const stored = await anAudit({
      project,
      scores: { overall: saved.scores.overall },
      issues: saved.issues.map((i) => ({ code: i.code, occurrences: i.occurrences.map((o) => o.url) })),
    });

    const same = await audit('--baseline', stored.id, '--fail-on', 'new-error,score-drop:5');
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(new RegExp(`compared with audit ${stored.id}: 0 new, 0 fixed`));
    // The project's URL is not the audited one: said, since URLs of another host would all count as new.
    expect(same.stderr).toContain(
      `note: audit ${stored.id} audited ${new URL(project.url).origin}, this run ${origin}: occurrences are ` +
        'matched by URL, so those on another host all count as new',
    );

    site.broken = true;
    const gated = await audit('--baseline', stored.id, '--fail-on', 'new-error');
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(new RegExp(`^ {2}CRITICAL META_TITLE_MISSING +${origin}/new$`, 'm'));

    // Only a completed audit is a baseline; an id that names none is bad usage too (exit 2, not 1).
    const running = await anAudit({ project: { org: project.org, id: project.id }, status: 'RUNNING' });
    const notDone = await audit('--baseline', running.id, '--fail-on', 'new-error');
    expect(notDone.code).toBe(2);
    expect(notDone.stderr).toContain(`is RUNNING, not COMPLETED: only a completed audit is a baseline`);
    const unknown = await audit('--baseline', '01890000-0000-7000-8000-000000000000');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Audit 01890000-0000-7000-8000-000000000000 not found');
  }, 120_000);
});
