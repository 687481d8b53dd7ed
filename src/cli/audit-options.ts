import { readFileSync } from 'node:fs';
import { DomainError } from '../platform/errors.js';
import type { AuditCommandOptions, OutputFormat } from './audit-types.js';

type Crawler = typeof import('../crawler/index.js');

/** What `seo audit`'s flags ask for, checked before anything is fetched. */
export interface AuditSettings {
  format: OutputFormat;
  json: boolean;
  maxPages: number;
  maxDepth: number;
  /** --list: the URLs of the file. */
  listUrls: string[] | undefined;
  /** The crawl scope as a project's settings hold it. */
  scopeSettings: {
    includePatterns: string[] | undefined;
    excludePatterns: string[] | undefined;
    crawlSubdomains: boolean | undefined;
    listMode: 'urls' | 'sitemap' | undefined;
    startUrls: string[] | undefined;
    queryParameters: 'keep' | 'drop-all' | 'drop-listed' | undefined;
    droppedParameters: string[] | undefined;
  };
}

/** The flags checked (bad usage: exit code 2), with what they ask for. */
export function auditSettings(opts: AuditCommandOptions, crawler: Crawler): AuditSettings {
  const format: OutputFormat = opts.format ?? (opts.json ? 'json' : 'text');
  const json = format === 'json';
  const maxPages = Number(opts.maxPages);
  const maxDepth = Number(opts.maxDepth ?? crawler.DEFAULT_CRAWL_OPTIONS.maxDepth);
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > 100_000)
    throw new DomainError('BAD_USER_INPUT', '--max-pages must be 1-100000');
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 100)
    throw new DomainError('BAD_USER_INPUT', '--max-depth must be 0-100');
  if (opts.allOccurrences && !json)
    throw new DomainError('BAD_USER_INPUT', '--all-occurrences needs --json (or --format json)');
  if (opts.sarifUris && format !== 'sarif')
    throw new DomainError('BAD_USER_INPUT', '--sarif-uris needs --format sarif');
  // Crawl scope: the flags are the project settings' fields, checked as saving them would check them.
  for (const [flag, patterns] of [
    ['--include', opts.include ?? []],
    ['--exclude', opts.exclude ?? []],
  ] as const) {
    for (const pattern of patterns) {
      const error = crawler.scopePatternError(pattern);
      if (error) throw new DomainError('BAD_USER_INPUT', `${flag} ${JSON.stringify(pattern)} ${error}`);
    }
  }
  const listUrls = opts.list ? readList(opts.list, maxPages) : undefined;
  const scopeSettings = {
    includePatterns: opts.include,
    excludePatterns: opts.exclude,
    crawlSubdomains: opts.subdomains,
    listMode: opts.list ? ('urls' as const) : opts.listSitemap ? ('sitemap' as const) : undefined,
    startUrls: listUrls,
    queryParameters: opts.queryParams?.queryParameters,
    droppedParameters: opts.queryParams?.names,
  };
  return { format, json, maxPages, maxDepth, listUrls, scopeSettings };
}

/** --list: the file's URLs (one per line; # comments), at most --max-pages of them. */
function readList(file: string, maxPages: number): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DomainError('BAD_USER_INPUT', `--list: cannot read ${file} (${(err as Error).message})`);
  }
  const listUrls = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (!listUrls.length) throw new DomainError('BAD_USER_INPUT', `--list: ${file} lists no URL`);
  if (listUrls.length > maxPages)
    throw new DomainError('BAD_USER_INPUT', `--list: ${listUrls.length} URLs, more than --max-pages ${maxPages}`);
  return listUrls;
}

/** Once the start URL is resolved: every listed URL is the site's and in scope, and so is the start URL. */
export function checkScopeOfStart(
  url: string,
  settings: AuditSettings,
  opts: AuditCommandOptions,
  compileCrawlScope: Crawler['compileCrawlScope'],
): void {
  const scope = compileCrawlScope(url, {
    include: opts.include,
    exclude: opts.exclude,
    includeSubdomains: opts.subdomains,
    queryParameters: opts.queryParams?.queryParameters,
    droppedParameters: opts.queryParams?.names,
  });
  for (const listed of settings.listUrls ?? []) {
    let target: URL | null = null;
    try {
      target = new URL(listed);
    } catch {
      // reported below
    }
    if (!target || !scope.inSite(target) || !scope.matches(target))
      throw new DomainError(
        'BAD_USER_INPUT',
        `--list: ${listed} is not a URL of ${new URL(url).host}${opts.subdomains ? ' or its subdomains' : ''} ` +
          'inside the crawl scope',
      );
  }
  if (!settings.scopeSettings.listMode && !scope.matches(new URL(url)))
    throw new DomainError('BAD_USER_INPUT', `${url} is outside its own crawl scope (--include/--exclude)`);
}

/**
 * The secret values of `seo audit --login`, read from the environment, never from the command line (where `ps` and
 * the shell's history would show them).
 */
const LOGIN_SECRET_ENV = {
  username: 'SEO_LOGIN_USERNAME',
  password: 'SEO_LOGIN_PASSWORD',
  token: 'SEO_LOGIN_TOKEN',
  cookies: 'SEO_LOGIN_COOKIES',
  headerValue: 'SEO_LOGIN_HEADER_VALUE',
} as const;

/**
 * `seo audit --login` as a crawl login, checked by the rule a project's crawl login is saved under (a form's login URL
 * on the site's own hosts, the fields of its kind, their limits). A missing or refused value names its flag or
 * variable.
 */
export function loginOf(
  validate: Crawler['validateCrawlLogin'],
  startUrl: string,
  opts: AuditCommandOptions,
): import('../crawler/index.js').CrawlLogin {
  const env = (name: keyof typeof LOGIN_SECRET_ENV) => process.env[LOGIN_SECRET_ENV[name]] || null;
  const kind = opts.login!.toUpperCase() as import('../crawler/index.js').CrawlLoginKind;
  const input = {
    kind,
    ...(kind === 'FORM' && {
      loginUrl: opts.loginUrl ?? null,
      usernameField: opts.loginUserField,
      passwordField: opts.loginPasswordField,
    }),
    ...((kind === 'FORM' || kind === 'BASIC') && { username: env('username'), password: env('password') }),
    ...(kind === 'BEARER' && { token: env('token') }),
    ...(kind === 'COOKIE' && { cookies: env('cookies') }),
    ...(kind === 'HEADER' && { headerName: opts.loginHeader ?? null, headerValue: env('headerValue') }),
  };
  const where: Record<string, string> = {
    loginUrl: '--login-url',
    usernameField: '--login-user-field',
    passwordField: '--login-password-field',
    headerName: '--login-header',
    ...LOGIN_SECRET_ENV,
  };
  try {
    const { facts, secrets } = validate({ url: startUrl, settings: { crawlSubdomains: opts.subdomains } }, input, {});
    // Bound to this command's site and scope: sent nowhere else, as a project's login is.
    const binding = {
      startUrl,
      includeSubdomains: opts.subdomains === true,
      include: opts.include ?? [],
      exclude: opts.exclude ?? [],
    };
    return { ...facts, binding, secrets };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const field = err.details?.[0]?.path ?? '';
    const message = err.details?.[0]?.message ?? err.message;
    throw new DomainError('BAD_USER_INPUT', `--login ${opts.login}: ${where[field] ?? field} ${message}`);
  }
}
