import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';
import {
  CHECK_CATALOG,
  SEVERITIES,
  findCheck,
  isDefaultOverride,
  overrideProblem,
  type CheckDefinition,
  type CheckOverride,
  type Severity,
} from '../seo/checks/index.js';
import { CheckSettingsRepository, type CheckSettingRow } from './check-settings.repository.js';

/** One check as a project has it: the catalog's entry and the project's override, if any. */
export interface CheckSettingView {
  code: string;
  title: string;
  category: CheckDefinition['category'];
  scope: CheckDefinition['scope'];
  /** The severity the project's audits use. */
  severity: Severity;
  defaultSeverity: Severity;
  enabled: boolean;
  /** The project differs from the catalog for this code. */
  overridden: boolean;
  banded: boolean;
  updatedAt: Date | null;
}

export interface CheckSettingInput {
  code: string;
  /** Default true. */
  enabled?: boolean | null;
  /** Null or absent: the catalog's severity. */
  severity?: Severity | null;
}

function view(check: CheckDefinition, row: CheckSettingRow | undefined): CheckSettingView {
  return {
    code: check.code,
    title: check.title,
    category: check.category,
    scope: check.scope,
    severity: row?.severity ?? check.severity,
    defaultSeverity: check.severity,
    enabled: row?.enabled ?? true,
    overridden: row !== undefined,
    banded: check.banded === true,
    updatedAt: row?.updatedAt ?? null,
  };
}

/**
 * Per-project check settings (issue 28 item 6): disable a check or change its severity. Reads need read access,
 * changes write access; another organization's project is NOT_FOUND. The audit applies them (CheckOverrides in
 * src/seo/checks/check-overrides.ts, loaded by the worker through `overridesFor`).
 */
export class CheckSettingsService {
  constructor(private readonly repo = new CheckSettingsRepository()) {}

  /** Every catalog check with the project's setting, in catalog order (the project is already the caller's). */
  async forProject(db: NativeDb, projectId: string): Promise<CheckSettingView[]> {
    const rows = new Map((await this.repo.list(db, projectId)).map((row) => [row.code, row]));
    return (CHECK_CATALOG as readonly CheckDefinition[]).map((check) => view(check, rows.get(check.code)));
  }

  /** What an audit of the project applies: its stored overrides (codes that left the catalog are ignored there). */
  async overridesFor(db: NativeDb, projectId: string): Promise<CheckOverride[]> {
    const rows = await this.repo.list(db, projectId);
    return rows.map((row) => ({ code: row.code, enabled: row.enabled, severity: row.severity }));
  }

  /** Sets one code's setting; a setting equal to the catalog's removes the override. */
  async set(
    db: NativeDb,
    principal: Principal | null,
    projectId: string,
    input: CheckSettingInput,
  ): Promise<CheckSettingView> {
    // Another organization's project is NOT_FOUND whatever the input says.
    await this.ownedForWrite(db, principal, projectId);
    const check = this.validCode(input.code);
    const enabled = input.enabled ?? true;
    const severity = input.severity ?? null;
    if (severity !== null && !SEVERITIES.includes(severity))
      throw badInput(`severity must be one of ${SEVERITIES.join(', ')}`, [{ path: 'severity', message: 'invalid' }]);
    const problem = overrideProblem(check.code, severity);
    if (problem) throw badInput(problem, [{ path: 'severity', message: 'cannot be overridden for a banded check' }]);
    if (isDefaultOverride(check, enabled, severity)) {
      await this.repo.remove(db, projectId, check.code);
      return view(check, undefined);
    }
    // A disabled check keeps an overridden severity for when it is enabled again; the catalog's is stored as null.
    const stored = severity === check.severity ? null : severity;
    const row = await this.repo.upsert(db, projectId, check.code, enabled, stored);
    if (!row) throw notFound('Project');
    return view(check, row);
  }

  /** Back to the catalog's setting for one code. */
  async reset(db: NativeDb, principal: Principal | null, projectId: string, code: string): Promise<CheckSettingView> {
    await this.ownedForWrite(db, principal, projectId);
    const check = this.validCode(code);
    await this.repo.remove(db, projectId, check.code);
    return view(check, undefined);
  }

  private validCode(code: string): CheckDefinition {
    const problem = overrideProblem(code, null);
    const check = findCheck(code);
    if (problem || !check) throw badInput(problem ?? 'Unknown check code', [{ path: 'code', message: 'unknown' }]);
    return check;
  }

  private async ownedForWrite(db: NativeDb, principal: Principal | null, projectId: string): Promise<void> {
    const p = assertApiAccess(principal, 'write');
    if (!isUuid(projectId) || !(await this.repo.projectInOrganization(db, p.organizationId, projectId)))
      throw notFound('Project');
  }
}
