import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { FRESH } from '../../lib/urql';
import { DashboardProjectsDocument, ProjectOverviewDocument } from '../../gql/graphql';

export const DashboardPage = lazyRouteComponent(() => import('./dashboard-page'), 'DashboardPage');
export const ProjectOverviewPage = lazyRouteComponent(() => import('./project-overview-page'), 'ProjectOverviewPage');

/** Route loaders start a page's query while its code loads; the page's own query then shares it (urql dedupes). */
export function prefetchDashboard(client: Client): void {
  void client.query(DashboardProjectsDocument, {}, FRESH).toPromise();
}

export function prefetchProjectOverview(client: Client, projectId: string): void {
  void client.query(ProjectOverviewDocument, { projectId }, FRESH).toPromise();
}
export const ProjectSettingsPage = lazyRouteComponent(() => import('./project-settings-page'), 'ProjectSettingsPage');
