import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { DomainError, badInput } from '../platform/errors.js';
import { SecretBox } from '../platform/secret-box.js';
import { assertApiAccess } from '../identity/index.js';
import type { Project, ProjectService } from '../projects/index.js';
import {
  bindingMismatch,
  bindingOf,
  credentialHosts,
  parseBinding,
  type CrawlLoginBinding,
} from './crawl-login-binding.js';
import { CrawlLoginFailure } from './crawl-login.js';
import { CrawlLoginRepository, type CrawlLoginRow } from './crawl-login.repository.js';
import {
  CRAWL_LOGIN_KINDS,
  type CrawlLogin,
  type CrawlLoginFacts,
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

/** The key material of the configuration: CRAWL_SECRET_KEY, else the auth secret (as webhook secrets do). */
export const crawlKeyMaterial = (config: { CRAWL_SECRET_KEY?: string; authSecret: string }): string =>
  config.CRAWL_SECRET_KEY ?? config.authSecret;

/** The sealing of crawl logins, from key material (its own HKDF purpose: never the webhook secrets' key). */
export const crawlLoginBox = (keyMaterial: string): SecretBox => new SecretBox(keyMaterial, 'crawl-login-credentials');

/**
 * What is sealed (version 2): the secrets together with the project they belong to and where they were set for (the
 * binding), so that a database edit of the project's URL or of the login's row can redirect them nowhere. A value
 * sealed before issue 47 holds the secrets alone; it is bound to the `bound_to` its migration wrote, and re-sealed so
 * on first open.
 */
interface SealedLogin {
  v: 2;
  projectId: string;
  binding: CrawlLoginBinding;
  secrets: CrawlLoginSecrets;
}

/** Why an audit cannot use a login whose project grew past where it was set for. */
export const suspendedLoginMessage = (reason: string): string =>
  `The project's crawl login is suspended: ${reason}. An owner or admin must confirm it for the project's current ` +
  'URL and scope (project settings, Crawl login: Confirm; GraphQL confirmCrawlLogin), set it again or clear it.';

/**
 * Crawl logins (issue 28, login crawls): write-only credentials of a project, sealed at rest (SecretBox,
 * AES-256-GCM) with where they were set for (issue 47: crawl-login-binding.ts). The API sets, confirms and clears them
 * and reads their facts; only the audit runner opens them, and only for a project still inside their binding.
 */
export class CrawlLoginService {
  private readonly box: SecretBox;

  constructor(
    config: Pick<AppConfig, 'CRAWL_SECRET_KEY' | 'authSecret'>,
    private readonly projects: ProjectService | null = null,
    private readonly repo = new CrawlLoginRepository(),
  ) {
    this.box = crawlLoginBox(crawlKeyMaterial(config));
  }

  /** The facts of projects the caller was already allowed to read (Project.crawlLogin), by project id. */
  async factsOf(db: NativeDb, projectIds: readonly string[]): Promise<(CrawlLoginFacts | null)[]> {
    const rows = projectIds.length ? await this.repo.facts(db, projectIds) : [];
    const byId = new Map(
      rows.map(({ projectUrl, projectSettings, ...facts }): [string, CrawlLoginFacts] => {
        const now = bindingOf({ url: projectUrl, settings: projectSettings });
        const bound = parseBinding(facts.boundTo);
        const reason = bound ? bindingMismatch(bound, now) : 'it has no readable binding';
        return [facts.projectId, { ...facts, boundTo: bound ?? now, suspendedReason: reason }];
      }),
    );
    return projectIds.map((id) => byId.get(id) ?? null);
  }

  /** Sets (or replaces) a project's crawl login. Owners and admins (or an API key with write access) only. */
  async set(em: EntityManager, principal: Principal | null, projectId: string, input: CrawlLoginInputData) {
    const project = await this.ownedForChange(em, principal, projectId);
    // Write-only fields left empty keep their stored values (same kind only): a user can change the login URL
    // without typing the password again.
    const stored = await this.repo.find(em, project.id);
    const kept = stored?.kind === input.kind ? (this.unseal(stored)?.secrets ?? null) : null;
    const { facts, secrets } = this.validate(project, input, kept ?? {});
    // Set by an owner or admin for the project as it is now: bound to its current start URL and scope.
    const binding = bindingOf(project);
    await this.repo.upsert(em, {
      projectId: project.id,
      ...facts,
      boundTo: binding,
      sealed: this.seal(project.id, binding, secrets),
      keyId: this.box.keyId,
    });
    return project;
  }

  /**
   * Confirms a project's login for its current start URL and scope (owners and admins): re-sealed with the new
   * binding, its secrets unchanged. This is how a login suspended by a change of the project's host or a wider scope
   * is used again; confirming a login that is not suspended changes nothing but its binding's copy of the scope.
   */
  async confirm(em: EntityManager, principal: Principal | null, projectId: string): Promise<Project> {
    const project = await this.ownedForChange(em, principal, projectId);
    const stored = await this.repo.find(em, project.id);
    if (!stored) throw new DomainError('NOT_FOUND', 'This project has no crawl login to confirm.');
    const opened = this.unseal(stored);
    if (!opened)
      throw new DomainError(
        'BAD_USER_INPUT',
        "The project's crawl login cannot be opened with the configured key (or was sealed for another project): " +
          'set it again.',
      );
    const binding = bindingOf(project);
    const sealed = this.seal(project.id, binding, opened.secrets);
    if (!(await this.repo.rebind(em, project.id, stored.sealed, { sealed, keyId: this.box.keyId, boundTo: binding })))
      throw badInput("The project's crawl login changed meanwhile: read it again and confirm.");
    return project;
  }

  async clear(em: EntityManager, principal: Principal | null, projectId: string): Promise<Project> {
    const project = await this.ownedForChange(em, principal, projectId);
    await this.repo.delete(em, project.id);
    return project;
  }

  /**
   * The project's login opened for a crawl (a system read by the audit runner), or null without one. `project` is the
   * project as the audit reads it (its start URL and settings now). It fails the audit with the way out when the login
   * was sealed with another key (CRAWL_SECRET_KEY changed without a rotation) or for another project, and when it is
   * suspended: the project's host or scope grew past where the login was set for (bindingMismatch).
   */
  async openForCrawl(
    db: NativeDb,
    project: { id: string; url: string; settings?: unknown },
  ): Promise<CrawlLogin | null> {
    const row = await this.repo.find(db, project.id);
    if (!row) return null;
    if (this.box.open(row.sealed) === null)
      throw new CrawlLoginFailure(
        "The project's crawl login cannot be decrypted with the configured CRAWL_SECRET_KEY (it was sealed with " +
          'another key): run `seo secrets rotate-crawl-key --from <old> --to <new>`, or set the login again.',
      );
    const opened = this.unseal(row);
    if (!opened) throw new CrawlLoginFailure("The project's crawl login was sealed for another project: set it again.");
    if (opened.legacy) {
      // Sealed before bindings existed: bound to what its migration recorded, and re-sealed so from now on.
      const sealed = this.seal(project.id, opened.binding, opened.secrets);
      await this.repo.rebind(db, project.id, row.sealed, { sealed, keyId: this.box.keyId, boundTo: opened.binding });
    }
    const mismatch = bindingMismatch(opened.binding, bindingOf(project));
    if (mismatch) throw new CrawlLoginFailure(suspendedLoginMessage(mismatch));
    return {
      kind: row.kind,
      loginUrl: row.loginUrl,
      usernameField: row.usernameField,
      passwordField: row.passwordField,
      headerName: row.headerName,
      binding: opened.binding,
      secrets: opened.secrets,
    };
  }

  private seal(projectId: string, binding: CrawlLoginBinding, secrets: CrawlLoginSecrets): string {
    const payload: SealedLogin = { v: 2, projectId, binding, secrets };
    return this.box.seal(JSON.stringify(payload));
  }

  /**
   * A stored login opened: its secrets and the binding sealed with them (a legacy value: the binding its migration
   * recorded). Null when the key cannot open it, or it was sealed for another project or with no usable binding.
   */
  private unseal(
    row: Pick<CrawlLoginRow, 'projectId' | 'sealed' | 'boundTo'>,
  ): { secrets: CrawlLoginSecrets; binding: CrawlLoginBinding; legacy: boolean } | null {
    const opened = this.box.open(row.sealed);
    if (opened === null) return null;
    const payload = JSON.parse(opened) as Partial<SealedLogin> & CrawlLoginSecrets;
    if (payload.v === 2) {
      const binding = parseBinding(payload.binding);
      if (payload.projectId !== row.projectId || !binding || !payload.secrets) return null;
      return { secrets: payload.secrets, binding, legacy: false };
    }
    const binding = parseBinding(row.boundTo);
    return binding ? { secrets: payload as CrawlLoginSecrets, binding, legacy: true } : null;
  }

  /**
   * Re-seals every stored crawl login (the CLI; `projectIds` narrows it, for tests on a shared database) from the key
   * material `from` to `to`, in one transaction: all or none. Rows
   * already sealed with `to` are left alone (a rotation can be run again); a row sealed with neither key, or that
   * `from` cannot open, stops it with nothing changed.
   */
  static rotate(
    db: NativeDb,
    from: string,
    to: string,
    options: { projectIds?: readonly string[]; repo?: CrawlLoginRepository } = {},
  ) {
    const repo = options.repo ?? new CrawlLoginRepository();
    const oldBox = crawlLoginBox(from);
    const newBox = crawlLoginBox(to);
    return repo.resealAll(
      db,
      (row) => {
        if (row.keyId === newBox.keyId) return null;
        const opened = row.keyId === oldBox.keyId ? oldBox.open(row.sealed) : null;
        if (opened === null)
          throw new Error(
            `The crawl login of project ${row.projectId} was not sealed with the --from key (its key id is ` +
              `${row.keyId}, --from is ${oldBox.keyId}, --to is ${newBox.keyId}): nothing was changed.`,
          );
        return { sealed: newBox.seal(opened), keyId: newBox.keyId };
      },
      options.projectIds ?? null,
    );
  }

  private async ownedForChange(em: EntityManager, principal: Principal | null, projectId: string): Promise<Project> {
    const p = assertApiAccess(principal, 'write');
    if (!this.projects) throw new Error('CrawlLoginService needs the project service to change logins');
    // Tenancy first: another organization's project is NOT_FOUND, whatever the caller's role.
    const project = await this.projects.findOwned(em, p, projectId);
    if (p.via === 'SESSION' && p.role === 'member')
      throw new DomainError('FORBIDDEN', "Only organization owners and admins can change a project's crawl login.");
    return project;
  }

  private validate(project: Project, input: CrawlLoginInputData, kept: CrawlLoginSecrets) {
    return validateCrawlLogin(project, input, kept, (href) =>
      this.projects?.assertFetchableTarget(href, { path: 'loginUrl', noun: 'login URL' }),
    );
  }
}

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
): {
  facts: Omit<CrawlLoginFacts, 'projectId' | 'updatedAt' | 'boundTo' | 'suspendedReason'>;
  secrets: CrawlLoginSecrets;
} {
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
