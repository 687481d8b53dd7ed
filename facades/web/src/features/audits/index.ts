import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { FRESH } from '../../lib/urql';
import { STREAMED } from '../../lib/streamed-query';
import { AuditIssueListDocument, AuditIssuesDocument } from '../../gql/graphql';

export {
  parseIssueSearch,
  parseIssueUrlsSearch,
  parsePageSearch,
  parsePageViewSearch,
  type IssueSearch,
  type PageSearch,
} from './search-params';
export const AuditIssuesPage = lazyRouteComponent(() => import('./audit-issues-page'), 'AuditIssuesPage');
export const PagesExplorerPage = lazyRouteComponent(() => import('./pages-explorer-page'), 'PagesExplorerPage');
export const IssueUrlsPage = lazyRouteComponent(() => import('./issue-urls-page'), 'IssueUrlsPage');
export const PageViewPage = lazyRouteComponent(() => import('./page-view-page'), 'PageViewPage');

/** Starts the issues page's queries while its code loads (route loader); the server streams the list after the rest. */
export function prefetchAuditIssues(client: Client, projectId: string, auditId: string): void {
  void client.query(AuditIssuesDocument, { projectId, auditId }, FRESH).toPromise();
  void client.query(AuditIssueListDocument, { projectId, auditId }, { ...FRESH, ...STREAMED }).toPromise();
}
export { CrawlNotes } from './crawl-notes';
export { FilterBuilder } from './url-table-controls';
export { builtFilterInput, builtFilterOf, type BuiltFilter } from './url-table-view';
export { checkedText, countsText } from './audit-counts';
