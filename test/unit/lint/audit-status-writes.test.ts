import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './support.js';

const LIFECYCLE = 'src/audits/audit-lifecycle.ts';
const REPOSITORY = 'src/audits/audit.repository.ts';
const SECTION_START = '// ---- Status writes: called only by audit-lifecycle.ts ----';
const SECTION_END = '// ---- End of status writes ----';
const SOURCE_DIRS = ['src', 'workers', 'schema', 'facades', 'bin'];

/** `UPDATE audit [alias] SET <assignments>`, the assignments up to WHERE or the end of the statement or literal. */
const UPDATE_AUDIT = /\bUPDATE\s+"?audit"?(?:\s+(?:AS\s+)?(?!SET\b)\w+)?\s+SET\b((?:(?!\bWHERE\b|`|;)[\s\S])*)/gi;
/** A SET clause built elsewhere (`SET ${set}`): what it assigns cannot be read here, so it is refused outright. */
const UPDATE_AUDIT_DYNAMIC = /\bUPDATE\s+"?audit"?(?:\s+(?:AS\s+)?(?!SET\b)\w+)?\s+SET\s+\$\{/gi;
const ASSIGNS_STATUS = /(?:^|[^\w"])"?status"?\s*=(?!=)/i;
const INSERT_AUDIT = /\bINSERT\s+INTO\s+"?audit"?\s*\(([^)]*)\)/gi;
const ORM_WRITE =
  /\b(?:nativeUpdate|nativeInsert|insert|insertMany|upsert|upsertMany|create|assign)\s*\(\s*AuditEntity\b/g;
const KNEX_WRITE = /\(\s*['"]audit['"]\s*\)\s*\.\s*(?:update|insert|upsert)\s*\(/g;
const PROPERTY_WRITE = /\b\w*audit\w*\s*\.\s*status\s*=(?!=)/gi;

/** Every place in `text` that writes (or may write) the status of the audit table, by line. */
function statusWrites(text: string): { line: number; what: string }[] {
  const found: { line: number; what: string }[] = [];
  const at = (index: number, what: string) => found.push({ line: text.slice(0, index).split('\n').length, what });
  for (const m of text.matchAll(UPDATE_AUDIT)) if (ASSIGNS_STATUS.test(m[1])) at(m.index, 'UPDATE audit SET status');
  for (const m of text.matchAll(UPDATE_AUDIT_DYNAMIC))
    at(m.index, 'UPDATE audit SET ${...} (assignments built elsewhere)');
  for (const m of text.matchAll(INSERT_AUDIT))
    if (/(?:^|[^\w"])"?status"?(?![\w"])/i.test(m[1])) at(m.index, 'INSERT INTO audit (status)');
  for (const m of text.matchAll(ORM_WRITE)) at(m.index, m[0]);
  for (const m of text.matchAll(KNEX_WRITE)) at(m.index, m[0]);
  for (const m of text.matchAll(PROPERTY_WRITE)) at(m.index, m[0]);
  return found;
}

describe('the detector of audit status writes', () => {
  it.each([
    // What the job runner, the service and the sweeper each wrote before audit-lifecycle.ts existed.
    "`UPDATE audit SET status = 'RUNNING', phase = 'CRAWLING', attempts = attempts + 1 WHERE id = ? AND " +
      "status IN ('QUEUED', 'RUNNING')`",
    "`UPDATE audit SET status = 'CANCELLED', phase = NULL, completed_at = now(), error = ?\n WHERE project_id = ?`",
    "'UPDATE audit SET phase = NULL, error = $3, status = $2 WHERE id = $1'",
    "`UPDATE audit SET phase = 'CRAWLING', status = 'RUNNING' WHERE id = $1`",
    '`UPDATE "audit" AS a SET "status" = $1 WHERE a.id = $2`',
    'this.update(audit, `UPDATE audit SET ${set} WHERE id = $1 AND status = $2`)',
    "await em.nativeUpdate(AuditEntity, { id }, { status: 'FAILED', completedAt: new Date() });",
    "const audit = em.create(AuditEntity, { id, status: 'QUEUED' });",
    "`INSERT INTO audit (id, project_id, status, job_id) VALUES ($1, $2, 'QUEUED', $3)`",
    "latestAudit.status = 'CANCELLED';",
    "await knex('audit').update({ status: 'FAILED' });",
  ])('finds %s', (source) => {
    expect(statusWrites(source)).toHaveLength(1);
  });

  it.each([
    "`UPDATE audit SET phase = $1 WHERE id = $2 AND attempts = $3 AND status = 'RUNNING'`",
    "`UPDATE audit SET pages_crawled = $3 WHERE id = $1 AND status = 'CANCELLED'`",
    "'UPDATE audit_page p SET status_code = $1 WHERE p.audit_id = $2'",
    '`INSERT INTO audit_page (audit_id, url, final_url, status_code) SELECT $1`',
    "`INSERT INTO ranking (id, keyword_id, status) VALUES ($1, $2, 'OK')`",
    "`UPDATE competitor SET status = 'x' WHERE id = $1`",
    "if (audit.status === 'RUNNING') return;",
    "const rows = await nativeQuery(em, 'SELECT status, attempts FROM audit WHERE id = $1', [id]);",
    'await em.findOne(AuditEntity, { projectId, status: { $in: ACTIVE_STATUSES } });',
  ])('leaves %s alone', (source) => {
    expect(statusWrites(source)).toEqual([]);
  });
});

/** The repository's status-writes section: where it starts and ends, and the methods it defines. */
function statusSection(text: string): { start: number; end: number; methods: string[] } {
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  const section = start >= 0 && end > start ? text.slice(start, end) : '';
  // A method of the class: two spaces of indent, its name, its parameters.
  const methods = [...section.matchAll(/^ {2}(?:async\s+)?(\w+)\s*\(/gm)].map((m) => m[1]);
  return { start, end, methods };
}

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

describe('the status-writes section of a repository', () => {
  const text = `class R {
  read(db) { return q('SELECT 1'); }
  ${SECTION_START}
  async insertQueued(db, audit) { return q(\`INSERT INTO audit (id, status) VALUES ($1, $2)\`); }
  updateFailed(db, id) { return q(\`UPDATE audit SET status = $2 WHERE id = $1\`); }
  ${SECTION_END}
}`;

  it('is found with the methods it defines', () => {
    const section = statusSection(text);
    expect(section.methods).toEqual(['insertQueued', 'updateFailed']);
    expect(
      statusWrites(text).every((w) => w.line > lineOf(text, section.start) && w.line < lineOf(text, section.end)),
    ).toBe(true);
  });

  it('is empty without its two markers', () => {
    expect(statusSection(text.replace(SECTION_END, '')).methods).toEqual([]);
  });
});

describe('audit.status', () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(resolve(ROOT, dir)));
  const repository = readFileSync(resolve(ROOT, REPOSITORY), 'utf8');
  const section = statusSection(repository);

  it(`is written by ${REPOSITORY} alone (no other source writes the audit table's status)`, () => {
    const elsewhere = files
      .filter((file) => relative(ROOT, file) !== REPOSITORY)
      .flatMap((file) =>
        statusWrites(readFileSync(file, 'utf8')).map((w) => `${relative(ROOT, file)}:${w.line} ${w.what}`),
      );
    expect(elsewhere).toEqual([]);
  });

  it(`is written by ${REPOSITORY} inside its status-writes section only, one statement per transition`, () => {
    expect(files.map((f) => relative(ROOT, f))).toContain(REPOSITORY);
    const [from, to] = [lineOf(repository, section.start), lineOf(repository, section.end)];
    expect(section.start).toBeGreaterThan(-1);
    expect(section.end).toBeGreaterThan(section.start);
    const writes = statusWrites(repository);
    expect(writes.filter((w) => w.line < from || w.line > to)).toEqual([]);
    // create, claim, complete, failAttempt, fail, requeue, cancel, requeueSeen (two statements), failSeen,
    // finalizeExternal, finalizeExternalSeen.
    expect(writes).toHaveLength(12);
  });

  it(`has its status-writing methods called by ${LIFECYCLE} alone`, () => {
    // The twelve transitions of audit-lifecycle.ts, enterPhase (the phase of a RUNNING audit) and the two that make a
    // readable audit final (its status stays COMPLETED) included.
    expect(section.methods).toHaveLength(12);
    const named = new RegExp(`\\b(?:${section.methods.join('|')})\\b`, 'g');
    const elsewhere = files
      .filter((file) => ![LIFECYCLE, REPOSITORY].includes(relative(ROOT, file)))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return [...text.matchAll(named)].map((m) => `${relative(ROOT, file)}:${lineOf(text, m.index)} ${m[0]}`);
      });
    expect(elsewhere).toEqual([]);
    // The repository defines them and never calls them itself: each name appears once, in the section.
    for (const name of section.methods) {
      const uses = [...repository.matchAll(new RegExp(`\\b${name}\\b`, 'g'))].map((m) => m.index);
      expect(uses, name).toHaveLength(1);
      expect(uses[0] > section.start && uses[0] < section.end, name).toBe(true);
    }
    // And the lifecycle calls each of them.
    const lifecycle = readFileSync(resolve(ROOT, LIFECYCLE), 'utf8');
    for (const name of section.methods) expect(lifecycle, name).toMatch(new RegExp(`\\brepo\\.${name}\\(`));
  });

  it(`is decided by ${LIFECYCLE}, which speaks no SQL`, () => {
    const lifecycle = readFileSync(resolve(ROOT, LIFECYCLE), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(statusWrites(lifecycle)).toEqual([]);
    expect(lifecycle).not.toMatch(/\b(?:nativeQuery|nativeResult|nativeTransaction|getConnection|execute)\b|\.query\(/);
  });
});
