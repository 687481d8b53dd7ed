import { badInput } from '../platform/errors.js';
import { credentialHosts } from './crawl-login-binding.js';
import {
  CRAWL_LOGIN_KINDS,
  type CrawlLoginFields,
  type CrawlLoginKind,
  type CrawlLoginNameValue,
  type CrawlLoginSecrets,
} from './crawl-login.model.js';

/** A crawl login as the API takes it: the fields of its kind, every other one absent or null. */
export interface CrawlLoginInputData {
  kind: CrawlLoginKind;
  loginUrl?: string | null;
  usernameField?: string | null;
  passwordField?: string | null;
  username?: string | null;
  password?: string | null;
  extraFields?: CrawlLoginNameValue[] | null;
  /** COOKIE: `name=value; name2=value2`, as a Cookie header is written. */
  cookies?: string | null;
  token?: string | null;
  headerName?: string | null;
  headerValue?: string | null;
}

type InputField = Exclude<keyof CrawlLoginInputData, 'kind'>;

/** The fields each kind takes (required ones first; extraFields is optional). */
const KIND_FIELDS: Record<CrawlLoginKind, { required: InputField[]; optional: InputField[] }> = {
  FORM: { required: ['loginUrl', 'usernameField', 'passwordField', 'username', 'password'], optional: ['extraFields'] },
  COOKIE: { required: ['cookies'], optional: [] },
  BASIC: { required: ['username', 'password'], optional: [] },
  BEARER: { required: ['token'], optional: [] },
  HEADER: { required: ['headerName', 'headerValue'], optional: [] },
};

const LIMITS = {
  url: 2_048,
  fieldName: 100,
  username: 500,
  password: 1_000,
  extraFields: 10,
  extraValue: 1_000,
  cookies: 20,
  cookieName: 100,
  cookieValue: 4_096,
  token: 4_096,
  headerValue: 4_096,
};

/** An HTTP token (RFC 9110): header and cookie names. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A form field name: printable, no spaces (`user[email]` is fine). */
const FIELD_NAME = /^[\x21-\x7e]+$/;
/** Cookie values (RFC 6265 cookie-octet, and double quotes). */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e"]*$/;
/** A header value on one line: visible characters, spaces and tabs inside. */
const HEADER_VALUE = /^[\x21-\x7e\x80-\uffff](?:[\t\x20-\x7e\x80-\uffff]*[\x21-\x7e\x80-\uffff])?$/;
/** Headers a login may not set: the client's framing and routing, and what other kinds (COOKIE) are for. */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'content-type',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  'user-agent',
  'accept',
  'accept-encoding',
  'cookie',
]);

/**
 * A crawl login as given (the API's input, or `seo audit --login`), checked for the site it signs in to: the fields of
 * its kind, their limits, and a form's login URL on the site's own hosts. `kept`: stored secrets a field left empty
 * keeps. `assertFetchable`: the SSRF policy's check of the login URL, where the caller has one.
 */
export function validateCrawlLogin(
  site: { url: string; settings?: unknown },
  input: CrawlLoginInputData,
  kept: CrawlLoginSecrets,
  assertFetchable?: (href: string) => void,
): { facts: CrawlLoginFields; secrets: CrawlLoginSecrets } {
  const fail = (path: string, message: string) => badInput(`${path} ${message}`, [{ path, message }]);
  const kind = input.kind;
  if (!CRAWL_LOGIN_KINDS.includes(kind)) throw fail('kind', `must be one of ${CRAWL_LOGIN_KINDS.join(', ')}`);
  const { required, optional } = KIND_FIELDS[kind];
  for (const field of Object.keys(input) as (keyof CrawlLoginInputData)[]) {
    if (field === 'kind' || input[field] === null || input[field] === undefined || input[field] === '') continue;
    if (!required.includes(field) && !optional.includes(field)) throw fail(field, `is not used by the ${kind} kind`);
  }
  const keptFor: Partial<Record<InputField, unknown>> = {
    username: kept.username,
    password: kept.password,
    token: kept.token,
    headerValue: kept.headerValue,
    cookies: kept.cookies,
  };
  // An empty string is "not given", as null is: a write-only field the user left empty.
  const given = (field: InputField) => input[field] !== null && input[field] !== undefined && input[field] !== '';
  for (const field of required) {
    if (!given(field) && keptFor[field] !== undefined) continue;
    const value = input[field];
    if (value === null || value === undefined || (typeof value === 'string' && value === ''))
      throw fail(field, `is required for the ${kind} kind`);
  }
  const text = (field: InputField, max: number, pattern?: RegExp, rule?: string): string => {
    const value = input[field] as string;
    if (value.length > max) throw fail(field, `must be at most ${max} characters`);
    if (pattern && !pattern.test(value)) throw fail(field, rule ?? 'has characters that are not allowed');
    return value;
  };
  const noControl = /^\P{Cc}*$/u;
  const secrets: CrawlLoginSecrets = {};
  const facts = {
    kind,
    loginUrl: null as string | null,
    usernameField: null as string | null,
    passwordField: null as string | null,
    headerName: null as string | null,
    cookieNames: [] as string[],
    extraFieldNames: [] as string[],
  };
  switch (kind) {
    case 'FORM': {
      facts.loginUrl = loginUrlOf(site, text('loginUrl', LIMITS.url).trim(), assertFetchable);
      facts.usernameField = text('usernameField', LIMITS.fieldName, FIELD_NAME, 'must be a form field name');
      facts.passwordField = text('passwordField', LIMITS.fieldName, FIELD_NAME, 'must be a form field name');
      if (facts.usernameField === facts.passwordField)
        throw fail('passwordField', 'must differ from the username field');
      secrets.username = given('username') ? text('username', LIMITS.username, noControl) : kept.username;
      secrets.password = given('password') ? text('password', LIMITS.password, noControl) : kept.password;
      const extra = input.extraFields ?? kept.extraFields ?? [];
      if (extra.length > LIMITS.extraFields) throw fail('extraFields', `must be at most ${LIMITS.extraFields}`);
      extra.forEach(({ name, value }, i) => {
        if (!FIELD_NAME.test(name) || name.length > LIMITS.fieldName)
          throw fail(`extraFields.${i}.name`, `must be a form field name of at most ${LIMITS.fieldName} characters`);
        if (name === facts.usernameField || name === facts.passwordField)
          throw fail(`extraFields.${i}.name`, 'must differ from the username and password fields');
        if (value.length > LIMITS.extraValue || !noControl.test(value))
          throw fail(`extraFields.${i}.value`, `must be at most ${LIMITS.extraValue} characters on one line`);
      });
      if (extra.length) secrets.extraFields = extra.map(({ name, value }) => ({ name, value }));
      facts.extraFieldNames = extra.map((f) => f.name);
      break;
    }
    case 'COOKIE': {
      const cookies = given('cookies')
        ? parseCookies(text('cookies', LIMITS.cookies * (LIMITS.cookieValue + LIMITS.cookieName)))
        : (kept.cookies ?? []);
      secrets.cookies = cookies;
      facts.cookieNames = cookies.map((c) => c.name);
      break;
    }
    case 'BASIC':
      secrets.username = given('username')
        ? text('username', LIMITS.username, /^[^:\p{Cc}]*$/u, 'must not contain ":" or control characters')
        : kept.username;
      secrets.password = given('password') ? text('password', LIMITS.password, noControl) : kept.password;
      break;
    case 'BEARER':
      secrets.token = given('token')
        ? text('token', LIMITS.token, /^[A-Za-z0-9\-._~+/]+=*$/, 'must be a bearer token (RFC 6750)')
        : kept.token;
      break;
    case 'HEADER': {
      const name = text('headerName', LIMITS.fieldName, TOKEN, 'must be an HTTP header name').toLowerCase();
      if (RESERVED_HEADERS.has(name))
        throw fail('headerName', `cannot be ${name}${name === 'cookie' ? ' (use the COOKIE kind)' : ''}`);
      facts.headerName = name;
      secrets.headerValue = given('headerValue')
        ? text('headerValue', LIMITS.headerValue, HEADER_VALUE, 'must be a header value on one line')
        : kept.headerValue;
      break;
    }
  }
  return { facts, secrets };
}

/** A form's login URL: http(s), fetchable (the SSRF policy), and on the site's own hosts. */
function loginUrlOf(
  site: { url: string; settings?: unknown },
  raw: string,
  assertFetchable?: (href: string) => void,
): string {
  const fail = (message: string) => badInput(`loginUrl ${message}`, [{ path: 'loginUrl', message }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail('must use http or https');
  if (url.username || url.password) throw fail('must not contain credentials');
  url.hash = '';
  const settings = (site.settings ?? {}) as { crawlSubdomains?: boolean };
  const owns = credentialHosts({ startUrl: site.url, includeSubdomains: settings.crawlSubdomains === true });
  if (!owns(url))
    throw fail(
      `must be on the project's site (${new URL(site.url).host}${
        new URL(site.url).protocol === 'https:' ? ', over https' : ''
      })`,
    );
  assertFetchable?.(url.href);
  return url.href;
}

/** `a=1; b=2` -> cookies, each name an HTTP token and each value a cookie value. */
function parseCookies(raw: string): CrawlLoginNameValue[] {
  const fail = (message: string) => badInput(`cookies ${message}`, [{ path: 'cookies', message }]);
  const parts = raw
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) throw fail('must hold at least one name=value pair');
  if (parts.length > LIMITS.cookies) throw fail(`must hold at most ${LIMITS.cookies} cookies`);
  const seen = new Set<string>();
  return parts.map((part) => {
    const eq = part.indexOf('=');
    const name = eq > 0 ? part.slice(0, eq).trim() : '';
    const value = eq > 0 ? part.slice(eq + 1).trim() : '';
    if (!name || !TOKEN.test(name) || name.length > LIMITS.cookieName)
      throw fail('must be name=value pairs separated by ";" (a name is letters, digits and !#$%&\'*+-.^_`|~)');
    if (value.length > LIMITS.cookieValue || !COOKIE_VALUE.test(value))
      throw fail(`has a value for ${name} that is not a cookie value (no spaces, commas, semicolons or backslashes)`);
    if (seen.has(name)) throw fail(`names ${name} twice`);
    seen.add(name);
    return { name, value };
  });
}
