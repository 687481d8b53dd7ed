import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import type { UrlTableExportFormat } from '../audits/index.js';
import { DomainError } from '../platform/errors.js';
import { config, lazy, print, systemPrincipal, withOrm, type CliRoot } from './cli-runtime.js';

const FORMATS = ['csv', 'json', 'xlsx'] as const;
type Format = (typeof FORMATS)[number];

interface ExportUrlsOptions {
  project: string;
  audit?: string;
  format: string;
  columns?: string;
  filter?: string;
  sort?: string;
  check?: string;
  out?: string;
}

const refuse = (message: string) => new DomainError('BAD_USER_INPUT', message);

/** `field` or `field:asc` / `field:desc`, as the REST export takes it. */
function sortOf(text: string | undefined): { field: string; direction: 'ASC' | 'DESC' } | null {
  if (!text) return null;
  const [field, direction = 'asc'] = text.split(':');
  if (!field || !['asc', 'desc'].includes(direction.toLowerCase()))
    throw refuse('--sort must be a field key, optionally followed by :asc or :desc');
  return { field, direction: direction.toUpperCase() as 'ASC' | 'DESC' };
}

/** The filter builder's JSON ({ combinator, groups: [{ combinator, conditions }] }); the service checks the rest. */
function filterOf(text: string | undefined): { combinator?: string; groups: [] } | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as { combinator?: string; groups: [] };
  } catch {
    throw refuse('--filter must be JSON: { "combinator": "AND", "groups": [{ "conditions": [...] }] }');
  }
}

async function write(out: WriteStream | NodeJS.WriteStream, chunk: Buffer | string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/**
 * `seo export urls`: the URL table of a project's audit as shown in the web app (columns, filter, sort, one check's
 * URLs with its evidence as columns), as CSV, JSON or XLSX, through the same service as GraphQL's urlTableExport and
 * the REST export, a piece at a time into the file (or standard output).
 */
export function registerExportCommands(program: Command, root: CliRoot): void {
  const exportCommand = program.command('export').description('export data as the web app shows it');
  exportCommand
    .command('urls')
    .description(
      "export an audit's URL table as shown: its columns, filter and sort, or one check's URLs (--check) with the " +
        'evidence as columns; prints { file, format, auditId, checkCode, rows } when written to --out',
    )
    .requiredOption('--project <id>', 'the project')
    .option('--audit <id>', 'an audit of the project (default: its latest)')
    .option('--format <format>', 'csv, json or xlsx', 'csv')
    .option('--columns <keys>', 'field keys, comma-separated (GraphQL urlTableFields; evidence.* with --check)')
    .option('--filter <json>', 'the filter as JSON: { "combinator", "groups": [{ "combinator", "conditions" }] }')
    .option('--sort <field[:asc|:desc]>', 'a sortable field (default url; with --check, ranking URLs first)')
    .option('--check <code>', "one check's URLs (an issue's), e.g. LINKS_INTERNAL_BROKEN")
    .option('--out <file>', 'the file to write (default: standard output)')
    .action(async (opts: ExportUrlsOptions) => {
      const format = opts.format.toLowerCase() as Format;
      if (!FORMATS.includes(format)) throw refuse(`--format must be csv, json or xlsx, not "${opts.format}"`);
      if (format === 'xlsx' && !opts.out && process.stdout.isTTY)
        throw refuse('--format xlsx writes bytes: give --out <file> or redirect standard output');
      const view = {
        columns: opts.columns ? opts.columns.split(',').map((c) => c.trim()) : null,
        sort: sortOf(opts.sort),
        filter: filterOf(opts.filter),
        checkCode: opts.check ?? null,
      };
      const conf = await config();
      await withOrm(root, conf, async (orm) => {
        const em = orm.em.fork();
        const { UrlTableExportService, urlTableExportTarget } = await lazy.audits();
        const target = await urlTableExportTarget(em, opts.project, opts.audit ?? null);
        const principal = systemPrincipal(target.organizationId);
        const service = new UrlTableExportService(conf.authSecret);
        const kind = format.toUpperCase() as UrlTableExportFormat;
        // The first piece is asked for before the file is opened: a refused view leaves no empty file behind.
        let piece = await service.piece(em, principal, target.auditId, kind, view, null, 1000);
        const out = opts.out ? createWriteStream(opts.out) : process.stdout;
        let rows = 0;
        for (;;) {
          await write(out, piece.encoding === 'BASE64' ? Buffer.from(piece.content, 'base64') : piece.content);
          rows += piece.rows;
          if (!piece.nextCursor) break;
          piece = await service.piece(em, principal, target.auditId, kind, view, piece.nextCursor, 1000);
        }
        if (out !== process.stdout) {
          out.end();
          await once(out, 'finish');
          print({ file: opts.out, format, auditId: target.auditId, checkCode: view.checkCode, rows });
        }
      });
    });
}
