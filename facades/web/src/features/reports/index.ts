import { lazyRouteComponent } from '@tanstack/react-router';

export const ReportPage = lazyRouteComponent(() => import('./report-page'), 'ReportPage');
