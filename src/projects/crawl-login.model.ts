import type { CrawlLoginBinding, CrawlLoginFields } from '../crawler/index.js';

/**
 * What the API shows of a project's crawl login: its fields (never a secret value), where it was set for, its state.
 */
export interface CrawlLoginFacts extends CrawlLoginFields {
  projectId: string;
  /** Where it was set for (the plain copy the API shows; the crawl obeys the sealed one). */
  boundTo: CrawlLoginBinding;
  /**
   * Why the login is suspended — the project's host or scope grew past where it was set for — or null when audits use
   * it. An owner or admin confirms it for the current settings (or sets it again).
   */
  suspendedReason: string | null;
  updatedAt: Date;
}
