import type { ExternalLinkCache } from '../crawler/index.js';
import type { NativeDb } from '../platform/db/native-query.js';
import type { LinkTargetInfo } from '../seo/checks/index.js';
import { ExternalLinkCacheRepository } from './external-link-cache.repository.js';

/** How long a project's external link verdict is reused by its later audits: a day. */
export const EXTERNAL_LINK_CACHE_MS = 24 * 60 * 60 * 1000;

/**
 * A project's external link verdicts of the last day, for its audit's crawl: only that project's rows are read or
 * written (never another project's, nor another organization's). A failure to read or write the cache costs the
 * audit nothing but the reuse: it is reported through `warn`, and the links are checked as if nothing was kept.
 */
export function projectExternalLinkCache(
  db: NativeDb,
  projectId: string,
  warn: (err: unknown, what: string) => void,
  now: () => number = Date.now,
  repo = new ExternalLinkCacheRepository(),
): ExternalLinkCache {
  return {
    async recent(): Promise<ReadonlyMap<string, LinkTargetInfo>> {
      try {
        return await repo.recent(db, projectId, new Date(now() - EXTERNAL_LINK_CACHE_MS));
      } catch (err) {
        warn(err, 'external link cache not read');
        return new Map();
      }
    },
    async store(results: ReadonlyMap<string, LinkTargetInfo>): Promise<void> {
      try {
        await repo.store(db, projectId, results);
      } catch (err) {
        warn(err, 'external link cache not written');
      }
    },
  };
}
