import { lazyRouteComponent } from '@tanstack/react-router';

export const OrganizationPage = lazyRouteComponent(() => import('./organization-page'), 'OrganizationPage');
export const InvitationPage = lazyRouteComponent(() => import('./invitation-page'), 'InvitationPage');
