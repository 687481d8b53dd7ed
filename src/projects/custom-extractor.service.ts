import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import { isUuid, newId } from '../platform/ids.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';
import {
  EXTRACTION_LIMITS,
  EXTRACTOR_KINDS,
  EXTRACTOR_MATCHES,
  EXTRACTOR_OUTPUTS,
  extractorProblem,
  isSearch,
  type ExtractorKind,
  type ExtractorMatch,
  type ExtractorOutput,
  type ExtractorSpec,
} from '../seo/extraction/index.js';
import {
  CustomExtractorRepository,
  type CustomExtractorRow,
  type CustomExtractorValues,
} from './custom-extractor.repository.js';

export interface CustomExtractorInput {
  name: string;
  kind: ExtractorKind;
  expression: string;
  /** Default TEXT; searches ignore it. */
  output?: ExtractorOutput | null;
  attribute?: string | null;
  /** Default FIRST. */
  match?: ExtractorMatch | null;
  /** Searches: the expression is a regular expression. Default false. */
  regex?: boolean | null;
  ignoreCase?: boolean | null;
}

export type CustomExtractorView = CustomExtractorRow & {
  /** The URL table's column: `extract.<key>` or `search.<key>`. */
  column: string;
};

export const extractorColumn = (row: Pick<CustomExtractorRow, 'kind' | 'key'>): string =>
  `${isSearch(row.kind) ? 'search' : 'extract'}.${row.key}`;

const view = (row: CustomExtractorRow): CustomExtractorView => ({ ...row, column: extractorColumn(row) });

/** What the evaluator needs of a stored extractor. */
export const extractorSpec = (row: CustomExtractorRow): ExtractorSpec => ({
  key: row.key,
  kind: row.kind,
  expression: row.expression,
  output: row.output,
  attribute: row.attribute,
  match: row.match,
  regex: row.regex,
  ignoreCase: row.ignoreCase,
});

/** A column key from a name: lower-case letters, digits and underscores. */
export function keyOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32)
    .replace(/_+$/, '');
  return slug || 'extractor';
}

/**
 * Custom extraction and search (issue 50 item 5): a project's extractors, at most 20, each checked when saved (a
 * selector, XPath or regex that does not compile is BAD_USER_INPUT with the reason). Reads need read access, changes
 * write access; another organization's project or extractor is NOT_FOUND. The audit runner evaluates them on each
 * page (`specsFor`).
 */
export class CustomExtractorService {
  constructor(private readonly repo = new CustomExtractorRepository()) {}

  /** The project's extractors (the project is already the caller's). */
  async forProject(db: NativeDb, projectId: string): Promise<CustomExtractorView[]> {
    return (await this.repo.list(db, projectId)).map(view);
  }

  /** What an audit of the project evaluates, with each one's name for the audit's record. */
  async specsFor(db: NativeDb, projectId: string): Promise<(ExtractorSpec & { name: string })[]> {
    return (await this.repo.list(db, projectId)).map((row) => ({ ...extractorSpec(row), name: row.name }));
  }

  async add(
    db: NativeDb,
    principal: Principal | null,
    projectId: string,
    input: CustomExtractorInput,
  ): Promise<CustomExtractorView> {
    const p = assertApiAccess(principal, 'write');
    if (!isUuid(projectId) || !(await this.repo.projectInOrganization(db, p.organizationId, projectId)))
      throw notFound('Project');
    const values = this.validate(input);
    const taken = new Set(await this.repo.keys(db, projectId));
    const base = keyOf(values.name);
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    const row = await this.repo.insert(db, newId(), projectId, key, values, EXTRACTION_LIMITS.extractorsPerProject);
    if (row === null) throw notFound('Project');
    if (row === 'limit')
      throw badInput(`A project has at most ${EXTRACTION_LIMITS.extractorsPerProject} extractors`, [
        { path: 'name', message: 'too many extractors' },
      ]);
    if (row === 'duplicate') throw this.duplicate();
    return view(row);
  }

  async update(
    db: NativeDb,
    principal: Principal | null,
    id: string,
    input: CustomExtractorInput,
  ): Promise<CustomExtractorView> {
    await this.owned(db, principal, id);
    const row = await this.repo.update(db, id, this.validate(input));
    if (row === null) throw notFound('Extractor');
    if (row === 'duplicate') throw this.duplicate();
    return view(row);
  }

  async remove(db: NativeDb, principal: Principal | null, id: string): Promise<CustomExtractorView> {
    const row = await this.owned(db, principal, id);
    if (!(await this.repo.remove(db, id))) throw notFound('Extractor');
    return view(row);
  }

  private async owned(db: NativeDb, principal: Principal | null, id: string): Promise<CustomExtractorRow> {
    const p = assertApiAccess(principal, 'write');
    const row = isUuid(id) ? await this.repo.findOwned(db, p.organizationId, id) : null;
    if (!row) throw notFound('Extractor');
    return row;
  }

  private duplicate() {
    return badInput('Another extractor of the project has this name', [{ path: 'name', message: 'already used' }]);
  }

  /** The stored values of an input, or BAD_USER_INPUT naming the field and the reason. */
  private validate(input: CustomExtractorInput): CustomExtractorValues {
    const name = input.name.trim();
    if (!name || name.length > 80)
      throw badInput('The name must have 1 to 80 characters', [{ path: 'name', message: 'invalid length' }]);
    if (!EXTRACTOR_KINDS.includes(input.kind))
      throw badInput(`kind must be one of ${EXTRACTOR_KINDS.join(', ')}`, [{ path: 'kind', message: 'invalid' }]);
    const search = isSearch(input.kind);
    const output = search ? 'TEXT' : (input.output ?? 'TEXT');
    const match = search ? 'FIRST' : (input.match ?? 'FIRST');
    if (!EXTRACTOR_OUTPUTS.includes(output))
      throw badInput(`output must be one of ${EXTRACTOR_OUTPUTS.join(', ')}`, [{ path: 'output', message: 'invalid' }]);
    if (!EXTRACTOR_MATCHES.includes(match))
      throw badInput(`match must be one of ${EXTRACTOR_MATCHES.join(', ')}`, [{ path: 'match', message: 'invalid' }]);
    const attribute = output === 'ATTRIBUTE' && input.kind !== 'REGEX' ? (input.attribute?.trim() ?? '') : null;
    if (attribute !== null && !/^[^\s"'>/=]{1,100}$/.test(attribute))
      throw badInput('Name the attribute to read (no spaces or quotes)', [{ path: 'attribute', message: 'invalid' }]);
    const values: CustomExtractorValues = {
      name,
      kind: input.kind,
      expression: input.expression,
      output: input.kind === 'REGEX' ? 'TEXT' : output,
      attribute: attribute?.toLowerCase() ?? null,
      match,
      regex: search && input.regex === true,
      ignoreCase: input.ignoreCase === true,
    };
    const problem = extractorProblem({ key: 'x', ...values });
    if (problem)
      throw badInput(problem, [
        { path: problem.startsWith('Name the attribute') ? 'attribute' : 'expression', message: problem },
      ]);
    return values;
  }
}
