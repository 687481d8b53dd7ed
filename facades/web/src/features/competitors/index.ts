import { lazyRouteComponent } from '@tanstack/react-router';

export const CompetitorsPage = lazyRouteComponent(() => import('./competitors-page'), 'CompetitorsPage');
