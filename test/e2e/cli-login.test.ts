import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHeaders, startLoginSites, type LoginHost } from '../support/crawl-login-site.js';
import { uniq } from '../support/app.js';

/**
 * `seo audit --login`: a crawl signed in from the command line, with the secrets in the environment. The member site
 * (test/support/crawl-login-site.ts) redirects /members/* to its login page unless the request is signed in, and links
 * to another host, which must never see a credential.
 */
const root = resolve(import.meta.dirname, '../..');
let site: Awaited<ReturnType<typeof startLoginSites>>['site'];
let other: LoginHost;
let hosts: Record<string, string>;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function seoAudit(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'audit', site.origin, '--max-pages', '20', '--json', ...args],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', CHROMIUM_PATH: '', ...hosts, ...env } },
      (err, stdout, stderr) => done({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

const memberPages = (run: Run) =>
  (JSON.parse(run.stdout) as { pagesCrawled: number; issues: { examples: string[] }[] }).pagesCrawled;
/** The member site's form: its login page and field names. */
const formLogin = () => [
  '--login',
  'form',
  '--login-url',
  `${site.origin}/login`,
  '--login-user-field',
  'user',
  '--login-password-field',
  'pass',
];

beforeAll(async () => {
  ({ site, other, env: hosts } = await startLoginSites(uniq()));
});
afterAll(async () => {
  await site?.close();
  await other?.close();
});

describe('seo audit --login', () => {
  it('signs in with a form and crawls the member pages; the other host never sees a credential', async () => {
    site.setAuth({ kind: 'FORM', username: 'crawler', password: 'pw-form-secret' });
    const signedOut = await seoAudit([]);
    expect(signedOut.code).toBe(0);
    site.requests.length = 0;
    other.requests.length = 0;
    const run = await seoAudit(formLogin(), { SEO_LOGIN_USERNAME: 'crawler', SEO_LOGIN_PASSWORD: 'pw-form-secret' });
    expect(run.code, run.stderr).toBe(0);
    // Signed in, /members/, /members/a and /members/b are pages of the site; signed out they were redirects.
    expect(memberPages(run)).toBeGreaterThan(memberPages(signedOut));
    const member = site.requests.filter((r) => r.path.startsWith('/members/a'));
    expect(member.length).toBeGreaterThan(0);
    expect(member.every((r) => /sid=/.test(String(r.headers.cookie)))).toBe(true);
    expect(other.requests.length).toBeGreaterThan(0);
    expect(other.requests.flatMap(credentialHeaders)).toEqual([]);
    // The secret is in no output; it was never on the command line.
    expect(run.stdout + run.stderr).not.toContain('pw-form-secret');
  }, 60_000);

  it('a wrong password fails the audit with the reason (exit code 2), never a signed-out score', async () => {
    site.setAuth({ kind: 'FORM', username: 'crawler', password: 'right' });
    const run = await seoAudit(formLogin(), {
      SEO_LOGIN_USERNAME: 'crawler',
      SEO_LOGIN_PASSWORD: 'wrong',
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'FAILED', scores: null });
    expect(run.stderr).toMatch(/^audit failed: The login failed: the login form was shown again .*Check the username/m);
  }, 60_000);

  it('sends a bearer token from SEO_LOGIN_TOKEN to the site only', async () => {
    site.setAuth({ kind: 'BEARER', token: 'tok-cli-123' });
    site.requests.length = 0;
    other.requests.length = 0;
    const run = await seoAudit(['--login', 'bearer'], { SEO_LOGIN_TOKEN: 'tok-cli-123' });
    expect(run.code, run.stderr).toBe(0);
    const member = site.requests.filter((r) => r.path === '/members/a');
    expect(member.map((r) => r.headers.authorization)).toContain('Bearer tok-cli-123');
    expect(other.requests.flatMap(credentialHeaders)).toEqual([]);
  }, 60_000);

  it.each([
    [['--login', 'bearer'], {}, /--login bearer: SEO_LOGIN_TOKEN is required for the BEARER kind/],
    [['--login', 'form'], { SEO_LOGIN_USERNAME: 'u', SEO_LOGIN_PASSWORD: 'p' }, /--login-url is required/],
    [
      ['--login', 'form', '--login-url', 'http://elsewhere.example/login'],
      { SEO_LOGIN_USERNAME: 'u', SEO_LOGIN_PASSWORD: 'p' },
      /--login form: --login-url must be on the project's site/,
    ],
    [['--login', 'header'], { SEO_LOGIN_HEADER_VALUE: 'v' }, /--login-header is required for the HEADER kind/],
    [['--login', 'telnet'], {}, /Allowed choices are form, cookie, basic, bearer, header/],
  ])(
    'refuses %j before anything is fetched',
    async (args, env, message) => {
      site.requests.length = 0;
      const run = await seoAudit(args, env as Record<string, string>);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(site.requests.filter((r) => r.path !== '/' && r.path !== '/robots.txt')).toEqual([]);
    },
    60_000,
  );
});
