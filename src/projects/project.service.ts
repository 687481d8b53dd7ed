import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess, assertWithinQuota, quotaFor } from '../identity/index.js';
import type { NativeDb, NativeResult } from '../platform/db/native-query.js';
import type { Project, ProjectSettings } from './project.entity.js';
import {
  ProjectRepository,
  type ListColumns,
  type ProjectChanges,
  type ProjectListRow,
  type ProjectOrganizationRow,
  type ScheduledProjectRow,
} from './project.repository.js';
import {
  DEFAULT_AUDIT_SCHEDULE,
  auditScheduleColumns,
  auditScheduleOf,
  parseAuditSchedule,
  sameAuditSchedule,
  type AuditScheduleInput,
} from './audit-schedule.js';
import { parseProjectUrl, resolveStartUrl } from './project-url.js';
import {
  SCOPE_PATTERNS_MAX,
  compileCrawlScope,
  isParameterName,
  scopePatternError,
  type CrawlScope,
} from '../crawler/index.js';
import {
  REFUSED_TARGET_REASON,
  createAddressPolicy,
  parseAllowList,
  refusedTarget,
  type AddressPolicy,
  type SafeHttpClient,
} from '../platform/safe-http/index.js';

export type { ListColumns, ProjectListRow, ProjectOrganizationRow, ScheduledProjectRow };

const ALL_COLUMNS: ListColumns = { url: true, settings: true };

export interface CreateProjectData {
  url: string;
  name?: string | null;
  auditSchedule?: AuditScheduleInput | null;
}

export interface UpdateProjectData {
  name?: string | null;
  url?: string | null;
  settings?: Partial<Record<keyof ProjectSettings, unknown>> | null;
  /** Fields given replace the stored ones (null resets one); omitted, the schedule stays as it is. */
  auditSchedule?: AuditScheduleInput | null;
}

/** Called before a project's rows go, so modules can cancel work (e.g. queued audits). */
export type ProjectDeletionHook = (em: EntityManager, project: Project) => Promise<void>;

/**
 * Called after a project's audit schedule was stored with a change (created with one, changed, turned OFF), so that
 * the scheduler follows. The database is the source of truth: a hook that fails is repaired by the reconciler.
 */
export type ProjectScheduleHook = (project: Project) => Promise<void>;

export class ProjectService {
  private readonly deletionHooks: ProjectDeletionHook[] = [];
  private readonly scheduleHooks: ProjectScheduleHook[] = [];
  /**
   * The safe HTTP client's own address policy (SAFE_HTTP_ALLOW), so a project is refused exactly when its fetches would
   * be.
   */
  private readonly addressPolicy: AddressPolicy;

  /**
   * `http` (the safe HTTP client) finds the scheme of a bare domain; without one (benches, one-off tools) a URL
   * without a scheme is refused rather than guessed.
   */
  constructor(
    private readonly config: Pick<AppConfig, 'quotas' | 'SAFE_HTTP_ALLOW'>,
    private readonly http: SafeHttpClient | null = null,
    private readonly repo = new ProjectRepository(),
  ) {
    this.addressPolicy = createAddressPolicy(parseAllowList(config.SAFE_HTTP_ALLOW.join(',')));
  }

  /**
   * A user-given start URL, ready to store: parsed, checked against the SSRF policy, and for a bare domain
   * (`example.com`, `host:8080`) the scheme the site answers on, https first (resolveBareUrl).
   */
  async startUrl(input: string): Promise<{ url: string; domain: string }> {
    const parsed = parseProjectUrl(input);
    this.assertFetchableTarget(parsed.url);
    if (parsed.schemeGiven) return { url: parsed.url, domain: parsed.domain };
    const http = this.http;
    if (!http) {
      const message = 'url must start with https:// or http://';
      throw badInput(message, [{ path: 'url', message }]);
    }
    return resolveStartUrl(parsed, http);
  }

  /** A start URL whose host is a refused address (or an internal-only name) is refused before it is stored. */
  assertFetchableTarget(url: string, field: { path: string; noun: string } = { path: 'url', noun: 'URL' }): void {
    const refused = refusedTarget(url, this.addressPolicy);
    if (refused)
      throw badInput(`The ${field.noun} ${REFUSED_TARGET_REASON}.`, [{ path: field.path, message: refused.message }]);
  }

  onDelete(hook: ProjectDeletionHook): void {
    this.deletionHooks.push(hook);
  }

  onScheduleChange(hook: ProjectScheduleHook): void {
    this.scheduleHooks.push(hook);
  }

  private async scheduleChanged(project: Project): Promise<void> {
    for (const hook of this.scheduleHooks) await hook(project);
  }

  /** Every scheduled project of every organization, for the schedulers (a system read: no principal). */
  listScheduled(db: NativeDb): Promise<ScheduledProjectRow[]> {
    return this.repo.listScheduled(db);
  }

  /** One project's schedule and its organization's plan, for the scheduled job (a system read); none when gone. */
  findScheduled(db: NativeDb, projectId: string): Promise<ScheduledProjectRow | undefined> {
    return isUuid(projectId) ? this.repo.findScheduled(db, projectId) : Promise.resolve(undefined);
  }

  /**
   * Plain rows, not managed entities: lists are read-only and hydration would cost more than the query. The
   * caller may leave out the columns its operation does not select (`url`, and `settings`, a JSON document
   * parsed for every row); a row then lacks those properties. The driver's result as it comes (`{ rows }`): the
   * list of every Surface A and B call runs this, and taking the rows out in a `.then` is one more promise.
   */
  list(
    db: NativeDb,
    principal: Principal | null,
    columns: ListColumns = ALL_COLUMNS,
  ): Promise<NativeResult<ProjectListRow>> {
    const p = assertApiAccess(principal, 'read');
    return this.repo.list(db, p.organizationId, columns);
  }

  async get(em: EntityManager, principal: Principal | null, id: string): Promise<Project> {
    const p = assertApiAccess(principal, 'read');
    return this.findOwned(em, p, id);
  }

  /** Another organization's project is indistinguishable from a missing one. */
  async findOwned(em: EntityManager, p: Principal, id: string): Promise<Project> {
    const project = isUuid(id) ? await this.repo.findOwned(em, p.organizationId, id) : null;
    if (!project) throw notFound('Project');
    return project;
  }

  async create(em: EntityManager, principal: Principal | null, data: CreateProjectData): Promise<Project> {
    const p = assertApiAccess(principal, 'write');
    const { url, domain } = await this.startUrl(data.url);
    const name = (data.name ?? '').trim() || domain;
    if (name.length > 100)
      throw badInput('name must be at most 100 characters', [
        { path: 'name', message: 'must be at most 100 characters' },
      ]);
    const max = quotaFor(this.config, p.plan).projects;
    const schedule = data.auditSchedule ? parseAuditSchedule(data.auditSchedule) : DEFAULT_AUDIT_SCHEDULE;
    const scheduled = schedule.frequency !== 'OFF';
    const createdAt = new Date();
    const row: Project = {
      id: newId(),
      organizationId: p.organizationId,
      name,
      url,
      domain,
      settings: {},
      createdAt,
      ...auditScheduleColumns(schedule, scheduled ? createdAt : null),
    };
    // Checked under the lock on the organization's row, so the quota holds under concurrency.
    const created = await this.repo.insertLocked(em, row, (count, duplicates) => {
      assertWithinQuota(count, max, max === 1 ? 'project' : 'projects', p.plan);
      if (duplicates) {
        throw new DomainError('BAD_USER_INPUT', `A project for ${url} already exists.`, [
          { path: 'url', message: 'already tracked' },
        ]);
      }
    });
    if (scheduled) await this.scheduleChanged(created);
    return created;
  }

  async update(em: EntityManager, principal: Principal | null, id: string, input: UpdateProjectData): Promise<Project> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.findOwned(em, p, id);
    const changes: ProjectChanges = {};
    if (input.name != null) {
      const name = input.name.trim();
      if (!name || name.length > 100)
        throw badInput('name must be 1-100 characters', [{ path: 'name', message: 'must be 1-100 characters' }]);
      changes.name = name;
    }
    if (input.settings) {
      const next: ProjectSettings = { ...(project.settings ?? {}) };
      const quota = quotaFor(this.config, p.plan).pagesPerAudit;
      for (const [key, value] of Object.entries(input.settings) as [keyof ProjectSettings, unknown][]) {
        if (value === undefined) continue;
        if (value === null) {
          delete next[key];
          continue;
        }
        (next as Record<string, unknown>)[key] = validateSetting(key, value, quota);
      }
      // Each list-mode URL is fetched like the project's own URL: the same SSRF policy.
      (next.startUrls ?? []).forEach((url, i) =>
        this.assertFetchableTarget(url, { path: `settings.startUrls.${i}`, noun: `list URL ${url}` }),
      );
      changes.settings = next;
    }
    if (input.url != null) {
      // Past audits keep the URL they crawled; the next audit starts from the new one.
      const { url, domain } = await this.startUrl(input.url);
      if (url !== project.url) {
        if (await this.repo.urlTaken(em, p.organizationId, url, project.id))
          throw badInput(`A project for ${url} already exists.`, [{ path: 'url', message: 'already tracked' }]);
        changes.url = url;
        changes.domain = domain;
      }
    }
    // The scope as a whole, against the start URL it will crawl from (either may just have changed).
    if (changes.settings || changes.url)
      assertScopeConsistent(changes.url ?? project.url, changes.settings ?? project.settings ?? {});
    let retimed = false;
    if (input.auditSchedule) {
      const current = auditScheduleOf(project);
      const schedule = parseAuditSchedule(input.auditSchedule, current);
      // Same run times: the job scheduler is left alone (re-registering it could replace a run waiting for a worker).
      retimed = !sameAuditSchedule(schedule, current);
      changes.schedule = auditScheduleColumns(schedule, retimed ? new Date() : project.auditScheduleChangedAt);
    }
    const updated = await this.repo.update(em, project, changes);
    if (!updated)
      throw badInput(`A project for ${changes.url} already exists.`, [{ path: 'url', message: 'already tracked' }]);
    if (retimed) await this.scheduleChanged(updated);
    return updated;
  }

  /**
   * Which organization owns a project, so that a shared link opens in the right one: answered when the signed-in
   * user is a member of that organization (an API key: its own organization only), NOT_FOUND otherwise, exactly as
   * for a missing project.
   */
  async organizationOf(db: NativeDb, principal: Principal | null, id: string): Promise<ProjectOrganizationRow> {
    const p = assertApiAccess(principal, 'read');
    let row: ProjectOrganizationRow | undefined;
    if (isUuid(id)) {
      row =
        p.via === 'SESSION' && p.userId
          ? await this.repo.organizationOfProjectForMember(db, id, p.userId)
          : await this.repo.organizationOfProject(db, id, p.organizationId);
    }
    if (!row) throw notFound('Project');
    return row;
  }

  async delete(em: EntityManager, principal: Principal | null, id: string): Promise<Project> {
    const p = assertApiAccess(principal, 'write');
    const project = await this.findOwned(em, p, id);
    for (const hook of this.deletionHooks) await hook(em, project);
    await this.repo.delete(em, p.organizationId, project.id);
    return project;
  }
}

/** List-mode URLs a project may hold, whatever the plan. */
const MAX_START_URLS = 1_000;

const ENUM_SETTINGS: Partial<Record<keyof ProjectSettings, readonly string[]>> = {
  renderingMode: ['html', 'browser'],
  listMode: ['off', 'urls', 'sitemap'],
  queryParameters: ['keep', 'drop-all', 'drop-listed'],
};

/** The crawl scope project settings describe (what auditCrawlOptions hands the crawler). */
function scopeOfSettings(settings: ProjectSettings): CrawlScope {
  return {
    include: settings.includePatterns ?? [],
    exclude: settings.excludePatterns ?? [],
    includeSubdomains: settings.crawlSubdomains === true,
    queryParameters: settings.queryParameters ?? 'keep',
    droppedParameters: settings.droppedParameters ?? [],
  };
}

/**
 * The scope settings together: list-mode URLs on the project's site (or a subdomain, with crawlSubdomains) and inside
 * the patterns, at least one of them for list mode URLS, and a start URL inside its own scope when links are followed
 * (the scope only ever narrows what robots.txt allows: an out-of-scope start URL would crawl nothing).
 */
function assertScopeConsistent(startUrl: string, settings: ProjectSettings): void {
  const scope = compileCrawlScope(startUrl, scopeOfSettings(settings));
  const urls = settings.startUrls ?? [];
  urls.forEach((raw, i) => {
    const url = new URL(raw);
    const path = `settings.startUrls.${i}`;
    if (!scope.inSite(url)) {
      const where = settings.crawlSubdomains ? 'the project’s site or one of its subdomains' : 'the project’s site';
      const message = `must be on ${where} (${new URL(startUrl).host}): ${raw} is not`;
      throw badInput(`settings.startUrls ${message}`, [{ path, message }]);
    }
    if (!scope.matches(url)) {
      const message = `must be inside the crawl scope (the include and exclude patterns): ${raw} is not`;
      throw badInput(`settings.startUrls ${message}`, [{ path, message }]);
    }
  });
  if (settings.listMode === 'urls' && urls.length === 0) {
    const message = 'must hold at least one URL in list mode URLS';
    throw badInput(`settings.startUrls ${message}`, [{ path: 'settings.startUrls', message }]);
  }
  if (settings.listMode === 'urls' || settings.listMode === 'sitemap') return;
  const start = new URL(startUrl);
  if (scope.matches(start)) return;
  const target = start.pathname + start.search;
  const included = compileCrawlScope(startUrl, { include: settings.includePatterns ?? [] }).matches(start);
  const field = included ? 'excludePatterns' : 'includePatterns';
  const message = included
    ? `must not match the project's start URL (${target}): nothing would be crawled`
    : `must match the project's start URL (${target}), or nothing would be crawled`;
  throw badInput(`settings.${field} ${message}`, [{ path: `settings.${field}`, message }]);
}

/** A list of strings from the API, each trimmed; `what` names one in messages. */
function stringList(value: unknown, max: number, fail: (message: string) => DomainError): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw fail('must be a list of strings');
  if (value.length > max) throw fail(`must hold at most ${max} entries`);
  return (value as string[]).map((v) => v.trim());
}

const INT_SETTINGS: Partial<Record<keyof ProjectSettings, [number, number]>> = {
  maxDepth: [0, 50],
  crawlDelayMs: [0, 60_000],
};

/** One setting, checked against its bounds; maxPages cannot exceed the plan's pages-per-audit quota. */
function validateSetting(key: keyof ProjectSettings, value: unknown, pagesQuota: number): unknown {
  const fail = (message: string) => badInput(`settings.${key} ${message}`, [{ path: `settings.${key}`, message }]);
  switch (key) {
    case 'maxPages':
      if (!Number.isInteger(value) || (value as number) < 1) throw fail('must be a positive integer');
      if ((value as number) > pagesQuota)
        throw new DomainError('PLAN_LIMIT', `Plan limit reached: the plan allows ${pagesQuota} pages per audit.`, [
          { path: 'settings.maxPages', message: `must be at most ${pagesQuota} on this plan` },
        ]);
      return value;
    case 'maxDepth':
    case 'crawlDelayMs': {
      const [min, max] = INT_SETTINGS[key]!;
      if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
        throw fail(`must be an integer from ${min} to ${max}`);
      return value;
    }
    case 'userAgent':
      if (typeof value !== 'string' || !value.trim() || value.length > 200 || /[\r\n]/.test(value))
        throw fail('must be 1-200 characters on one line');
      return value.trim();
    case 'respectRobots':
    case 'rankIncludeSubdomains':
      if (typeof value !== 'boolean') throw fail('must be true or false');
      return value;
    case 'rankCountry':
      if (typeof value !== 'string' || !/^[a-z]{2}$/i.test(value)) throw fail('must be an ISO 3166-1 alpha-2 code');
      return value.toLowerCase();
    case 'rankLanguage':
      if (typeof value !== 'string' || !/^[a-z]{2,3}(-[a-z]{2,4})?$/i.test(value))
        throw fail('must be a language code such as en');
      return value.toLowerCase();
    case 'rankDevice':
      if (value !== 'desktop' && value !== 'mobile') throw fail('must be desktop or mobile');
      return value;
    case 'renderingMode':
    case 'listMode':
    case 'queryParameters': {
      const allowed = ENUM_SETTINGS[key]!;
      if (typeof value !== 'string' || !allowed.includes(value)) throw fail(`must be one of ${allowed.join(', ')}`);
      return value;
    }
    case 'crawlSubdomains':
      if (typeof value !== 'boolean') throw fail('must be true or false');
      return value;
    case 'includePatterns':
    case 'excludePatterns': {
      const patterns = stringList(value, SCOPE_PATTERNS_MAX, fail);
      patterns.forEach((pattern, i) => {
        const error = scopePatternError(pattern);
        if (error) throw fail(`pattern ${i + 1} (${JSON.stringify(pattern.slice(0, 80))}) ${error}`);
      });
      return [...new Set(patterns)];
    }
    case 'startUrls': {
      const max = Math.min(pagesQuota, MAX_START_URLS);
      const urls: string[] = [];
      for (const raw of stringList(value, max, fail)) {
        let url: URL;
        try {
          url = new URL(raw);
        } catch {
          throw fail(`${JSON.stringify(raw.slice(0, 200))} is not a valid URL`);
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(`${url.href} must use http or https`);
        if (url.username || url.password) throw fail(`${url.href} must not contain credentials`);
        if (url.href.length > 2048) throw fail('each URL must be at most 2048 characters');
        url.hash = '';
        if (!urls.includes(url.href)) urls.push(url.href);
      }
      return urls;
    }
    case 'droppedParameters': {
      const names = stringList(value, SCOPE_PATTERNS_MAX, fail);
      const bad = names.find((name): boolean => !isParameterName(name));
      if (bad !== undefined)
        throw fail(
          `${JSON.stringify(bad.slice(0, 100))} is not a parameter name (1-100 characters, no & = # or space)`,
        );
      return [...new Set(names)];
    }
  }
}
