import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import {
  nativeQuery,
  nativeResult,
  nativeTransaction,
  type NativeDb,
  type NativeResult,
} from '../platform/db/native-query.js';
import { jsonParam } from '../platform/db/sql-params.js';
import {
  ProjectEntity,
  type Project,
  type ProjectRecord,
  type ProjectScheduleColumns,
  type ProjectSettings,
} from './project.entity.js';
import type { Plan } from '../platform/config.js';

/**
 * A listed project: the organization is the caller's, so it is not read back for every row; url, settings and the
 * audit schedule are there when the list was asked for them (ListColumns).
 */
export type ProjectListRow = Omit<ProjectRecord, 'organizationId' | 'url' | 'settings' | keyof ProjectScheduleColumns> &
  Partial<Pick<ProjectRecord, 'url' | 'settings'>> &
  Partial<ProjectScheduleColumns>;

/** Optional columns of a project list. */
export interface ListColumns {
  url: boolean;
  settings: boolean;
  /** The audit schedule's columns. */
  schedule?: boolean;
}

const LIST_STATEMENTS = new Map<string, string>();

/** The schedule's columns (of the table named `t`, when given) in the shape ProjectScheduleColumns names. */
const scheduleColumns = (t = '') =>
  `${t}audit_schedule_frequency AS "auditScheduleFrequency", ${t}audit_schedule_time AS "auditScheduleTime",
  ${t}audit_schedule_time_zone AS "auditScheduleTimeZone", ${t}audit_schedule_day_of_week AS "auditScheduleDayOfWeek",
  ${t}audit_schedule_day_of_month AS "auditScheduleDayOfMonth", ${t}audit_schedule_changed_at AS
  "auditScheduleChangedAt"`;
const SCHEDULE_COLUMNS = scheduleColumns();
const SCHEDULED_PROJECT_COLUMNS = `p.id, p.organization_id AS "organizationId", o.plan, ${scheduleColumns('p.')}`;

/** One statement per column choice, built once. */
function listStatement({ url, settings, schedule = false }: ListColumns): string {
  const key = `${url} ${settings} ${schedule}`;
  let sql = LIST_STATEMENTS.get(key);
  if (!sql) {
    const optional = [url ? 'url' : '', settings ? 'settings' : '', schedule ? SCHEDULE_COLUMNS : '']
      .filter(Boolean)
      .map((c) => `${c}, `)
      .join('');
    sql = `SELECT id, name, ${optional}domain, created_at AS "createdAt" FROM project
      WHERE organization_id = $1 ORDER BY created_at, id`;
    LIST_STATEMENTS.set(key, sql);
  }
  return sql;
}

/** A project's columns in the shape `Project` names (the entity type). */
const PROJECT_COLUMNS = `id, organization_id AS "organizationId", name, url, domain, settings,
  created_at AS "createdAt", ${SCHEDULE_COLUMNS}`;

/**
 * Every counter in one statement: each is an indexed count (project by organization, audits by project and
 * creation time, keywords by project, active keys by organization). The month starts at 00:00 UTC.
 */
const USAGE_SQL = `SELECT
  (SELECT count(*) FROM project WHERE organization_id = $1)::int AS projects,
  (SELECT count(*) FROM audit a JOIN project p ON p.id = a.project_id
    WHERE p.organization_id = $1 AND a.created_at >= date_trunc('month',
  now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS "auditsThisMonth",
  (SELECT count(*) FROM keyword k JOIN project p ON p.id = k.project_id WHERE p.organization_id = $1)::int AS keywords,
  (SELECT count(*) FROM api_key WHERE organization_id = $1 AND revoked_at IS NULL)::int AS "apiKeys"`;

/** What ProjectRepository.update may change. */
export interface ProjectChanges {
  name?: string;
  url?: string;
  domain?: string;
  settings?: ProjectSettings;
  schedule?: ProjectScheduleColumns;
}

/** A scheduled project as the schedulers need it: its schedule, and its organization's plan for the audit's quota. */
export interface ScheduledProjectRow extends ProjectScheduleColumns {
  id: string;
  organizationId: string;
  plan: Plan;
}

/** The organization a project belongs to, as a member may see it. */
export interface ProjectOrganizationRow {
  id: string;
  name: string;
  slug: string;
}

export interface UsageRow {
  projects: number;
  auditsThisMonth: number;
  keywords: number;
  apiKeys: number;
}

/** One counted row of ProjectRepository.counts: `n` items of `field` for a project. */
export interface ProjectCountRow<F extends string = string> {
  field: F;
  project_id: string;
  n: number;
}

/** The only file of the projects module that speaks SQL or MikroORM. */
export class ProjectRepository {
  /**
   * Plain rows, not managed entities, as the driver returns them (`{ rows }`): the list of every Surface A and B
   * call runs this, and taking the rows out in a `.then` is one more promise.
   */
  list(db: NativeDb, organizationId: string, columns: ListColumns): Promise<NativeResult<ProjectListRow>> {
    return nativeResult<ProjectListRow>(db, listStatement(columns), [organizationId]);
  }

  /** A managed entity (update changes it in place), or null when the organization has no such project. */
  findOwned(em: EntityManager, organizationId: string, id: string): Promise<Project | null> {
    return em.findOne(ProjectEntity, { id, organizationId });
  }

  /**
   * Inserts a project under a lock on its organization's row, so that concurrent creates of one organization
   * serialize and `check` sees exact counts: the organization's projects and those with the same URL. `check`
   * throws to refuse (nothing is written); the row comes back as the entity type names it.
   */
  insertLocked(db: NativeDb, row: Project, check: (count: number, duplicates: number) => void): Promise<Project> {
    return nativeTransaction(db, async (tx) => {
      // Serializes creates per organization so the quota holds under concurrency.
      await tx.query('SELECT 1 FROM "organization" WHERE id = $1 FOR UPDATE', [row.organizationId]);
      const [counted] = await tx.query<{ count: number; duplicates: number }>(
        'SELECT count(*)::int AS count, (count(*) FILTER (WHERE url = $2))::int AS duplicates FROM project ' +
          'WHERE organization_id = $1',
        [row.organizationId, row.url],
      );
      check(counted.count, counted.duplicates);
      const [inserted] = await tx.query<Project>(
        `INSERT INTO project (id, organization_id, name, url, domain, settings, created_at, audit_schedule_frequency,
          audit_schedule_time, audit_schedule_time_zone, audit_schedule_day_of_week, audit_schedule_day_of_month,
          audit_schedule_changed_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13)
         RETURNING ${PROJECT_COLUMNS}`,
        [
          row.id,
          row.organizationId,
          row.name,
          row.url,
          row.domain,
          jsonParam(row.settings),
          row.createdAt,
          row.auditScheduleFrequency,
          row.auditScheduleTime,
          row.auditScheduleTimeZone,
          row.auditScheduleDayOfWeek,
          row.auditScheduleDayOfMonth,
          row.auditScheduleChangedAt,
        ],
      );
      return inserted;
    });
  }

  /**
   * Writes the given fields of a managed project (from findOwned); the others stay as they are. A URL another
   * project of the organization took meanwhile (the unique constraint) is reported as `false`.
   */
  async update(em: EntityManager, project: Project, changes: ProjectChanges): Promise<Project | false> {
    if (changes.name !== undefined) project.name = changes.name;
    if (changes.url !== undefined) project.url = changes.url;
    if (changes.domain !== undefined) project.domain = changes.domain;
    if (changes.settings !== undefined) project.settings = changes.settings;
    if (changes.schedule !== undefined) Object.assign(project, changes.schedule);
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) {
        em.clear();
        return false;
      }
      throw err;
    }
    return project;
  }

  /** Whether another project of the organization already starts from this URL. */
  async urlTaken(db: NativeDb, organizationId: string, url: string, exceptId: string): Promise<boolean> {
    const rows = await nativeQuery<{ one: number }>(
      db,
      'SELECT 1 AS one FROM project WHERE organization_id = $1 AND url = $2 AND id <> $3 LIMIT 1',
      [organizationId, url, exceptId],
    );
    return rows.length > 0;
  }

  /**
   * The organization that owns a project, when `userId` is one of its members; none otherwise (the project may
   * exist in an organization the user is not in, which must stay invisible).
   */
  async organizationOfProjectForMember(
    db: NativeDb,
    projectId: string,
    userId: string,
  ): Promise<ProjectOrganizationRow | undefined> {
    const [row] = await nativeQuery<ProjectOrganizationRow>(
      db,
      `SELECT o.id, o.name, o.slug FROM project p
        JOIN "member" m ON m."organizationId" = p.organization_id AND m."userId" = $2
        JOIN "organization" o ON o.id = p.organization_id
        WHERE p.id = $1`,
      [projectId, userId],
    );
    return row;
  }

  /** The organization of a project when it is `organizationId` (an API key sees its own organization only). */
  async organizationOfProject(
    db: NativeDb,
    projectId: string,
    organizationId: string,
  ): Promise<ProjectOrganizationRow | undefined> {
    const [row] = await nativeQuery<ProjectOrganizationRow>(
      db,
      `SELECT o.id, o.name, o.slug FROM project p JOIN "organization" o ON o.id = p.organization_id
        WHERE p.id = $1 AND p.organization_id = $2`,
      [projectId, organizationId],
    );
    return row;
  }

  /** Child rows go with ON DELETE CASCADE in one statement. */
  async delete(em: EntityManager, organizationId: string, id: string): Promise<void> {
    await em.nativeDelete(ProjectEntity, { id, organizationId });
  }

  /** Every project whose audit schedule is not OFF, across organizations (the reconciler's read; a partial index). */
  listScheduled(db: NativeDb): Promise<ScheduledProjectRow[]> {
    return nativeQuery<ScheduledProjectRow>(
      db,
      `SELECT ${SCHEDULED_PROJECT_COLUMNS} FROM project p JOIN "organization" o ON o.id = p.organization_id
        WHERE p.audit_schedule_frequency <> 'OFF' ORDER BY p.id`,
    );
  }

  /** One project's schedule and its organization's plan, whatever the schedule (none when the project is gone). */
  async findScheduled(db: NativeDb, projectId: string): Promise<ScheduledProjectRow | undefined> {
    const [row] = await nativeQuery<ScheduledProjectRow>(
      db,
      `SELECT ${SCHEDULED_PROJECT_COLUMNS} FROM project p JOIN "organization" o ON o.id = p.organization_id
        WHERE p.id = $1`,
      [projectId],
    );
    return row;
  }

  /** What an organization uses of its plan: projects, audits this month, keywords, active API keys. */
  async usage(db: NativeDb, organizationId: string): Promise<UsageRow> {
    const [row] = await nativeQuery<UsageRow>(db, USAGE_SQL, [organizationId]);
    return row;
  }

  /**
   * The statement counting, for a list of projects ($1), the rows of every source: one flat `SELECT ... GROUP BY`
   * member of a UNION ALL per source (a table with a `project_id` column, one row per counted item). Wrapping
   * module-written subqueries instead cost PostgreSQL ~10% more per execution (planning the pulled-up
   * subqueries), on every project list. Empty when there is no source. The table names are checked by the caller.
   */
  countsStatement(sources: Iterable<readonly [field: string, table: string]>): string {
    return [...sources]
      .map(
        ([
          field,
          table,
        ]) => `SELECT '${field}' AS field, project_id::text AS project_id, count(*)::int AS n FROM ${table}
            WHERE project_id = ANY($1::uuid[]) GROUP BY project_id`,
      )
      .join(' UNION ALL ');
  }

  /** Runs a countsStatement for these projects; the driver's result as it comes (see list). */
  counts<F extends string>(
    db: NativeDb,
    statement: string,
    projectIds: readonly string[],
  ): Promise<NativeResult<ProjectCountRow<F>>> {
    return nativeResult<ProjectCountRow<F>>(db, statement, [projectIds]);
  }
}
