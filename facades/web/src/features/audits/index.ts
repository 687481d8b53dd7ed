import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { FRESH } from '../../lib/urql';
import { AuditIssuesDocument } from '../../gql/graphql';

export {
  parseIssueSearch,
  parsePageSearch,
  parsePageViewSearch,
  type IssueSearch,
  type PageSearch,
} from './search-params';
export const AuditIssuesPage = lazyRouteComponent(() => import('./audit-issues-page'), 'AuditIssuesPage');
export const PagesExplorerPage = lazyRouteComponent(() => import('./pages-explorer-page'), 'PagesExplorerPage');
export const PageViewPage = lazyRouteComponent(() => import('./page-view-page'), 'PageViewPage');

/** Starts the issues page's query while its code loads (route loader). */
export function prefetchAuditIssues(client: Client, projectId: string, auditId: string): void {
  void client.query(AuditIssuesDocument, { projectId, auditId }, FRESH).toPromise();
}
