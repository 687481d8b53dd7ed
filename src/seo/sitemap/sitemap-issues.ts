import type { SitemapIssue, SitemapIssueCode } from './sitemap.types.js';

/** Counts every issue but keeps only the first `limit`, so a broken 50,000-URL file stays small. */
export class IssueList {
  readonly items: SitemapIssue[] = [];
  count = 0;

  /** `byCode` is shared between the error and warning lists: totals per code, never capped. */
  constructor(
    private readonly limit: number,
    private readonly byCode: Partial<Record<SitemapIssueCode, number>>,
  ) {}

  add(code: SitemapIssueCode, message: string, line?: number): void {
    this.count++;
    this.byCode[code] = (this.byCode[code] ?? 0) + 1;
    if (this.items.length < this.limit) {
      this.items.push(line === undefined ? { code, message } : { line, code, message });
    }
  }
}
