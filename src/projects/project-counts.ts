import type { NativeDb, NativeResult } from '../platform/db/native-query.js';
import { ProjectRepository, type ProjectCountRow } from './project.repository.js';
import type { ProjectCountsType, ProjectType } from './project.types.js';

export type ProjectCountField = 'audits' | 'keywords' | 'competitors';

/** Where a counter's rows live: a table with a `project_id` column, one row per counted item. */
export interface ProjectCountSource {
  table: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The modules that own the counted rows register where they live; a list of projects then costs ONE statement
 * for all counters instead of one per module (ProjectRepository.countsStatement writes it).
 */
export class ProjectCountRegistry {
  private readonly sources = new Map<ProjectCountField, ProjectCountSource>();
  /** The one statement over every registered source, built once (registration happens at startup). */
  private statement: string | null = null;

  constructor(private readonly repo = new ProjectRepository()) {}

  register(field: ProjectCountField, source: ProjectCountSource): void {
    if (!IDENTIFIER.test(source.table))
      throw new Error(`project count source for ${field}: ${JSON.stringify(source.table)} is not a table name`);
    this.sources.set(field, source);
    this.statement = null;
  }

  /**
   * The counters of the given projects: one statement for all of them and every registered source. `fill` then
   * sets them on the projects. The resolvers that return projects do both when the operation selects the field,
   * so `Project.counts` is a plain field: no field resolver with its own batch per list.
   * Two steps, not one method with a `.then`: the list of every Surface A and B call runs this, and each `.then`
   * is one more promise.
   */
  read(db: NativeDb, projects: readonly ProjectType[]): Promise<ProjectCountRows> {
    return projects.length
      ? this.query(
          db,
          projects.map((p) => p.id),
        )
      : Promise.resolve(NO_ROWS);
  }

  /** Sets `counts` on each project from what `read` returned for them (0 where a source has no rows). */
  fill(projects: readonly ProjectType[], { rows }: ProjectCountRows): void {
    const byId = new Map<string, ProjectCountsType>();
    for (const project of projects) byId.set(project.id, (project.counts = { audits: 0, keywords: 0, competitors: 0 }));
    for (const r of rows) {
      const counts = byId.get(r.project_id);
      if (counts) counts[r.field] = r.n;
    }
  }

  private query(db: NativeDb, projectIds: readonly string[]): Promise<ProjectCountRows> {
    this.statement ??= this.repo.countsStatement(
      [...this.sources].map(([field, { table }]) => [field, table] as const),
    );
    return this.statement
      ? this.repo.counts<ProjectCountField>(db, this.statement, projectIds)
      : Promise.resolve(NO_ROWS);
  }
}

type CountRow = ProjectCountRow<ProjectCountField>;

/** What ProjectCountRegistry.read gives back: the counted rows as the driver returns them. */
export type ProjectCountRows = NativeResult<CountRow>;
const NO_ROWS: ProjectCountRows = { rows: [] };
