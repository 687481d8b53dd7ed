import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { DomainError, badInput } from '../platform/errors.js';
import { SecretBox } from '../platform/secret-box.js';
import { assertApiAccess } from '../identity/index.js';
import {
  CrawlLoginFailure,
  bindingMismatch,
  bindingOf,
  parseBinding,
  validateCrawlLogin,
  type CrawlLogin,
  type CrawlLoginBinding,
  type CrawlLoginInputData,
  type CrawlLoginSecrets,
} from '../crawler/index.js';
import { CrawlLoginRepository, type CrawlLoginRow } from './crawl-login.repository.js';
import type { CrawlLoginFacts } from './crawl-login.model.js';
import type { Project } from './project.entity.js';
import type { ProjectService } from './project.service.js';

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
 * Crawl logins (issue 28, login crawls): a project setting of write-only credentials, sealed at rest (SecretBox,
 * AES-256-GCM) with where they were set for (issue 47: src/crawler/crawl-login-binding.ts). The API sets, confirms and
 * clears them and reads their facts; only the audit runner opens them, and only for a project still inside their
 * binding.
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
