import { lazyRouteComponent } from '@tanstack/react-router';

export const DashboardPage = lazyRouteComponent(() => import('./dashboard-page'), 'DashboardPage');
export const ProjectOverviewPage = lazyRouteComponent(() => import('./project-overview-page'), 'ProjectOverviewPage');
