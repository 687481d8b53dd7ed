import { lazyRouteComponent } from '@tanstack/react-router';

export const AlertsPage = lazyRouteComponent(() => import('./alerts-page'), 'AlertsPage');
export const UnsubscribePage = lazyRouteComponent(() => import('./unsubscribe-page'), 'UnsubscribePage');

/** /unsubscribe?token=…: the token of an alert e-mail's link, or nothing. */
export const parseUnsubscribeSearch = (search: Record<string, unknown>): { token?: string } =>
  typeof search.token === 'string' && search.token ? { token: search.token } : {};
