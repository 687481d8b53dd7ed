/**
 * The parsed flags of `seo audit`, shared by its parts (audit-command.ts declares them; audit-run.ts and the files it
 * loads read them): a file of its own so that the lazily loaded parts need not import the command that loads them.
 */
/** What `seo audit` prints on stdout. */
export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface AuditCommandOptions {
  maxPages: string;
  maxDepth?: string;
  json?: boolean;
  format?: OutputFormat;
  allOccurrences?: boolean;
  failUnder?: number;
  baseline?: string;
  /** The --fail-on values as given (each may hold several rules); parsed in the action. */
  failOn?: string[];
  writeJson?: string;
  sarifUris?: 'absolute' | 'relative';
  render?: 'html' | 'browser';
  /** Crawl scope (the project settings' fields: docs/audits-and-crawling.md). */
  include?: string[];
  exclude?: string[];
  subdomains?: boolean;
  list?: string;
  listSitemap?: boolean;
  queryParams?: {
    queryParameters: 'keep' | 'drop-all' | 'drop-listed';
    names: string[];
  };
  /** A crawl login (docs/audits-and-crawling.md); its secrets come from the environment only (LOGIN_SECRET_ENV). */
  login?: 'form' | 'cookie' | 'basic' | 'bearer' | 'header';
  loginUrl?: string;
  loginUserField: string;
  loginPasswordField: string;
  loginHeader?: string;
}
