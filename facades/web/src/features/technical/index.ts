import { lazyRouteComponent } from '@tanstack/react-router';

export const TechnicalPage = lazyRouteComponent(() => import('./technical-page'), 'TechnicalPage');
