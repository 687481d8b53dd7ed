import type {
  SafeHttpClient,
  SafeHttpHeaders,
  SafeHttpRequestOptions,
  SafeHttpResponse,
  SafeHttpStreamResponse,
} from '../platform/safe-http/index.js';
import { describeFetchFailure } from '../platform/safe-http/index.js';
import { findLoginForm, showsLoginForm } from './crawl-login-form.js';
import { credentialHosts, credentialTargets } from './crawl-login-binding.js';
import type { CrawlLogin } from './crawl-login.model.js';

export { credentialHosts } from './crawl-login-binding.js';

/**
 * Login crawls: the crawl's HTTP client, wrapped so that a project's credentials go with its own requests only.
 *
 * Where credentials are sent (the one rule, `credentialHosts`): a URL whose host is the project's start URL host,
 * www-insensitive (`www.example.com` and `example.com` are one site, as siteKey has it; the port must match), or a
 * subdomain of it when the crawl scope includes subdomains; never over plain http when the start URL is https. That
 * holds twice: for the crawl's own scope, and for the login's binding (the start URL and scope it was set for, sealed
 * with it: crawl-login-binding.ts), whose exclude patterns also keep it away from their URLs. So whatever the
 * project's settings say now, a login goes nowhere it was not set for — the form login's page, submission and
 * redirects too. Every
 * other URL — an external link check, an asset or a redirect hop on another host, a competitor (which has a client of
 * its own) — gets no Cookie, no Authorization and no custom header: the safe client asks for the credentials hop by
 * hop (`headersFor`), so a redirect to another host leaves them behind.
 *
 * Logout: a URL whose path or query names a logout (`looksLikeLogout`: log-out, logout, logoff, sign-out, signout,
 * end-session…) is requested without credentials, so that following it cannot end the crawl's session, and the
 * cookies it sets are not kept.
 */

/** Why a crawl could not sign in: the audit fails with this message (it names URLs and field names, never a value). */
export class CrawlLoginFailure extends Error {
  override name = 'CrawlLoginFailure';
}

export interface CrawlLoginScope {
  startUrl: string;
  /** The crawl scope includes subdomains: credentials go to the start host's subdomains too. */
  includeSubdomains?: boolean;
}

const LOGOUT = /(?:^|[^a-z])(?:log[-_]?out|log[-_]?off|sign[-_]?out|sign[-_]?off|end[-_]?session)(?:[^a-z]|$)/;

/** A URL that looks like it ends the session (see the module comment). */
export function looksLikeLogout(url: URL): boolean {
  let text = `${url.pathname}${url.search}`.toLowerCase();
  try {
    text = decodeURIComponent(text);
  } catch {
    // A malformed escape: the raw text is matched.
  }
  return LOGOUT.test(text);
}

/** Cookies of the project's own hosts: set by its responses (or configured), sent back to them only. */
export class CrawlCookieJar {
  private readonly cookies = new Map<string, string>();

  get size(): number {
    return this.cookies.size;
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** Applies a response's Set-Cookie headers: new values, and removals (Max-Age ≤ 0, an expiry in the past). */
  update(headers: SafeHttpHeaders): void {
    const raw = headers['set-cookie'];
    if (raw === undefined) return;
    for (const line of Array.isArray(raw) ? raw : [raw]) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!name) continue;
      let expired = false;
      for (const attribute of attributes) {
        const [key = '', arg = ''] = attribute.split('=').map((s) => s.trim());
        const lower = key.toLowerCase();
        if (lower === 'max-age' && Number(arg) <= 0) expired = true;
        if (lower === 'expires' && Date.parse(arg) < Date.now()) expired = true;
      }
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string | null {
    if (this.cookies.size === 0) return null;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const LOGIN_MAX_BYTES = 1024 * 1024;
const LOGIN_TIMEOUT_MS = 20_000;
const LOGIN_MAX_HOPS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface CrawlSessionOptions {
  signal?: AbortSignal;
}

/**
 * Signs in when the login is a form (before the crawl), and returns the crawl's client: `client` with the project's
 * credentials added to the requests that may carry them. Throws CrawlLoginFailure when the login fails.
 */
export async function openCrawlSession(
  client: SafeHttpClient,
  login: CrawlLogin,
  scope: CrawlLoginScope,
  options: CrawlSessionOptions = {},
): Promise<SafeHttpClient> {
  // Checked at send time, hop by hop: inside the crawl's scope AND inside the login's sealed binding.
  const crawlHosts = credentialHosts(scope);
  const boundHosts = credentialHosts(login.binding);
  const boundTargets = credentialTargets(login.binding);
  const signInHosts = (url: URL) => crawlHosts(url) && boundHosts(url);
  const owns = (url: URL) => crawlHosts(url) && boundTargets(url);
  const jar = new CrawlCookieJar();
  const fixed: Record<string, string> = {};
  const { secrets } = login;
  switch (login.kind) {
    case 'BASIC': {
      const pair = `${secrets.username ?? ''}:${secrets.password ?? ''}`;
      fixed.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
      break;
    }
    case 'BEARER':
      fixed.authorization = `Bearer ${secrets.token ?? ''}`;
      break;
    case 'HEADER':
      if (login.headerName) fixed[login.headerName.toLowerCase()] = secrets.headerValue ?? '';
      break;
    case 'COOKIE':
      for (const { name, value } of secrets.cookies ?? []) jar.set(name, value);
      break;
    case 'FORM':
      await signIn(client, login, signInHosts, jar, options.signal);
      break;
  }
  const credentialsFor = (url: URL): Record<string, string> | undefined => {
    if (!owns(url) || looksLikeLogout(url)) return undefined;
    const cookie = jar.header();
    return cookie === null ? fixed : { ...fixed, cookie };
  };
  return credentialedClient(client, owns, jar, credentialsFor);
}

function credentialedClient(
  client: SafeHttpClient,
  owns: (url: URL) => boolean,
  jar: CrawlCookieJar,
  credentialsFor: (url: URL) => Record<string, string> | undefined,
): SafeHttpClient {
  async function request(
    url: string | URL,
    options: SafeHttpRequestOptions = {},
  ): Promise<SafeHttpResponse | SafeHttpStreamResponse> {
    const callerHeadersFor = options.headersFor;
    const response = await client.request(url, {
      ...options,
      headersFor: (hop) => {
        const own = credentialsFor(hop);
        const caller = callerHeadersFor?.(hop);
        return own && caller ? { ...caller, ...own } : (own ?? caller);
      },
    });
    // A rotated session cookie is kept; a logout page's (or another host's) cookies are not.
    const final = new URL(response.finalUrl);
    if (owns(final) && !looksLikeLogout(final)) jar.update(response.headers);
    return response;
  }
  return {
    request: request as SafeHttpClient['request'],
    // The wrapped client belongs to the caller: it is closed where it was made.
    close: () => Promise.resolve(),
  };
}

/**
 * The form login: GET the login page (its cookies and hidden inputs, a CSRF token among them), POST the form with
 * the username and password, follow the redirects on the project's hosts, and check that a session was opened.
 */
async function signIn(
  client: SafeHttpClient,
  login: CrawlLogin,
  owns: (url: URL) => boolean,
  jar: CrawlCookieJar,
  signal: AbortSignal | undefined,
): Promise<void> {
  const loginUrl = login.loginUrl ?? '';
  const passwordField = login.passwordField ?? '';
  const page = await hops(client, owns, jar, 'GET', loginUrl, undefined, signal);
  if (page.status >= 400) throw new CrawlLoginFailure(`The login page ${page.finalUrl} answered ${page.status}.`);
  const form = findLoginForm(page.body.toString('utf8'), page.finalUrl, passwordField);
  if (!form)
    throw new CrawlLoginFailure(
      `The login page ${page.finalUrl} has no form with a field named "${passwordField}": check the login URL ` +
        'and the password field name.',
    );
  if (!owns(new URL(form.action)))
    throw new CrawlLoginFailure(`The login form posts to ${form.action}, outside the project's site.`);
  const body = new URLSearchParams(form.fields);
  for (const { name, value } of login.secrets.extraFields ?? []) body.set(name, value);
  body.set(login.usernameField ?? '', login.secrets.username ?? '');
  body.set(passwordField, login.secrets.password ?? '');
  const origin = new URL(page.finalUrl).origin;
  const result = await hops(client, owns, jar, 'POST', form.action, body.toString(), signal, {
    'content-type': 'application/x-www-form-urlencoded',
    origin,
    referer: page.finalUrl,
  });
  if (result.status >= 400)
    throw new CrawlLoginFailure(
      `The login failed: ${result.finalUrl} answered ${result.status}. Check the username and password.`,
    );
  if (showsLoginForm(result.body.toString('utf8'), result.finalUrl, passwordField))
    throw new CrawlLoginFailure(
      `The login failed: the login form was shown again (${result.finalUrl}). Check the username and password.`,
    );
  if (jar.size === 0)
    throw new CrawlLoginFailure(`The login failed: ${loginUrl} set no session cookie, so no page could be signed in.`);
}

interface HopsResult {
  finalUrl: string;
  status: number;
  body: Buffer;
}

/**
 * A request followed redirect by redirect (the safe client checks each hop's address), every hop's cookies kept: a
 * login sets its session cookie on the redirect that follows the POST. A hop off the project's hosts ends the login.
 */
async function hops(
  client: SafeHttpClient,
  owns: (url: URL) => boolean,
  jar: CrawlCookieJar,
  method: 'GET' | 'POST',
  url: string,
  body: string | undefined,
  signal: AbortSignal | undefined,
  headers: Record<string, string> = {},
): Promise<HopsResult> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (!owns(current)) throw new CrawlLoginFailure(`The login led to ${current.href}, outside the project's site.`);
    let response: SafeHttpResponse;
    try {
      const cookie = jar.header();
      response = await client.request(current, {
        method,
        followRedirects: false,
        maxBytes: LOGIN_MAX_BYTES,
        onBodyLimit: 'truncate',
        totalTimeoutMs: LOGIN_TIMEOUT_MS,
        signal,
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', ...headers },
        ...(method === 'POST' ? { body } : {}),
        ...(cookie === null ? {} : { headersFor: (u: URL) => (owns(u) ? { cookie } : undefined) }),
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new CrawlLoginFailure(`The login failed: ${describeFetchFailure(current.href, err)}.`);
    }
    jar.update(response.headers);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || location === undefined)
      return { finalUrl: current.href, status: response.status, body: response.body };
    if (hop >= LOGIN_MAX_HOPS)
      throw new CrawlLoginFailure(`The login was redirected more than ${LOGIN_MAX_HOPS} times.`);
    current = new URL(Array.isArray(location) ? (location[0] ?? '') : location, current);
    // After a POST the browser follows with a GET (303, and 301/302 in practice); the credentials are not re-sent.
    method = 'GET';
    body = undefined;
    headers = {};
  }
}
