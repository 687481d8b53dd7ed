import { InvalidArgumentError, Option, type Command } from 'commander';
import { EXIT_CODES_HELP, type CliRoot } from './cli-runtime.js';
import { OUTPUT_FORMATS, type AuditCommandOptions } from './audit-types.js';

/** `--query-params keep|drop-all|drop:<a,b>` as the project settings hold it. */
function parseQueryParams(value: string): NonNullable<AuditCommandOptions['queryParams']> {
  if (value === 'keep' || value === 'drop-all') return { queryParameters: value, names: [] };
  const m = /^drop:(.+)$/.exec(value);
  const names = m ? m[1].split(',').map((n) => n.trim()) : [];
  if (!m || names.some((n) => !n || /[&=#\s]/.test(n)))
    throw new InvalidArgumentError(`"${value}" is not keep, drop-all or drop:<name,name…>.`);
  return { queryParameters: 'drop-listed', names };
}

/** `--fail-under`: a score from 0 to 100 (decimals allowed); anything else is a usage error (exit code 2). */
function parseScoreThreshold(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError(`"${value}" is not a score from 0 to 100.`);
  return n;
}

/**
 * `seo audit`: its flags and help. What it does (audit-run.ts and the files it uses) loads when it runs, so that the
 * other commands, `seo start` first, never load the audit engine.
 */
export function registerAuditCommand(program: Command, root: CliRoot): void {
  program
    .command('audit')
    .argument('<url>', 'the site to audit')
    .option('--max-pages <n>', 'pages to crawl at most', '100')
    .option('--max-depth <n>', "link depth from the start URL (default: the crawler's)")
    .addOption(
      new Option('--format <format>', 'what to print (default: text; sarif is SARIF 2.1.0, junit is JUnit XML)')
        .choices(OUTPUT_FORMATS)
        .conflicts('json'),
    )
    .option('--json', 'print the full result as JSON (the same as --format json)')
    .option('--all-occurrences', 'with --json: every affected URL of each issue with its evidence, not 5 examples')
    .addOption(
      new Option(
        '--fail-under <score>',
        'exit with code 1 when the overall score is below this, 0-100 (for CI pipelines)',
      ).argParser(parseScoreThreshold),
    )
    .option(
      '--baseline <file|id>',
      'compare with an earlier audit: the JSON of `seo audit --json --all-occurrences` (or --write-json), a ' +
        "report's JSON with its occurrences, or a completed audit's id in the database (DATABASE_URL)",
    )
    .option(
      '--fail-on <rules>',
      'with --baseline, exit with code 1 when a rule trips: new-error (a new CRITICAL occurrence), new-warning, ' +
        'new-issue, score-drop:<points>; comma-separated or repeated',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--write-json <file>', 'also write the JSON of --json --all-occurrences to a file (the next --baseline)')
    .addOption(
      new Option(
        '--render <mode>',
        'html (default): analyse the HTML as served; browser: render each page in headless Chromium ' +
          '(RENDER_CHROMIUM_PATH, else CHROMIUM_PATH) ' +
          'and analyse the rendered DOM',
      ).choices(['html', 'browser']),
    )
    .option(
      '--include <pattern>',
      'crawl only URLs whose path and query match (repeatable): a glob (`*` within a segment, `**` across, `?` one ' +
        'character; anchored: /blog/**) or a regular expression /…/flags (searched anywhere: /[?&]page=/)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--exclude <pattern>',
      'never fetch URLs whose path and query match (repeatable; same syntax as --include)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--subdomains', "crawl the site's subdomains too (each one's robots.txt is obeyed)")
    .addOption(
      new Option(
        '--list <file>',
        'list mode: audit only the URLs of this file (one per line; # comments), links checked but not followed',
      ).conflicts('listSitemap'),
    )
    .option('--list-sitemap', "list mode: audit only the URLs of the site's sitemap")
    .addOption(
      new Option(
        '--query-params <mode>',
        'query parameters of found URLs: keep (default), drop-all, or drop:<a,b> (drop the named ones)',
      ).argParser(parseQueryParams),
    )
    .addOption(
      new Option(
        '--login <kind>',
        "crawl signed in, credentials sent to the site's own hosts only: form (posts the --login-url page's form " +
          'with SEO_LOGIN_USERNAME and SEO_LOGIN_PASSWORD), basic (the same two), bearer (SEO_LOGIN_TOKEN), cookie ' +
          '(SEO_LOGIN_COOKIES, "a=1; b=2") or header (--login-header, SEO_LOGIN_HEADER_VALUE); secrets come from the ' +
          'environment only',
      ).choices(['form', 'cookie', 'basic', 'bearer', 'header']),
    )
    .option('--login-url <url>', "with --login form: the login page, on the site's own host")
    .option('--login-user-field <name>', "with --login form: the form's username field", 'username')
    .option('--login-password-field <name>', "with --login form: the form's password field", 'password')
    .option('--login-header <name>', 'with --login header: the header to send')
    .addOption(
      new Option(
        '--sarif-uris <style>',
        'with --format sarif: locations as URLs (absolute, the default) or as host/path (relative: GitHub code ' +
          'scanning refuses http(s) ones)',
      ).choices(['absolute', 'relative']),
    )
    .description('audit a site once with the platform engine (no database); private addresses need SAFE_HTTP_ALLOW')
    .addHelpText(
      'after',
      `\nExamples:\n  npx seo audit https://example.com --max-pages 50\n  npx seo audit https://example.com ` +
        `--json --fail-under 80 | jq .scores\n  npx seo audit https://example.com --baseline seo-baseline.json ` +
        `--fail-on new-error,score-drop:5 \\\n    --format sarif --write-json seo-baseline.next.json ` +
        `> seo.sarif\n\n` +
        'A CI gate: occurrences (check code, URL) of this run that the baseline lacks are new, those it has that ' +
        'this run\nlacks are fixed. When a --fail-on rule trips, the rule and the new occurrences are printed on ' +
        'stderr.\n' +
        `${EXIT_CODES_HELP}`,
    )
    .action(async (rawUrl: string, opts: AuditCommandOptions) =>
      (await import('./audit-run.js')).runAudit(root, rawUrl, opts),
    );
}
