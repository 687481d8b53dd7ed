import { lazyRouteComponent } from '@tanstack/react-router';

export const SettingsLayout = lazyRouteComponent(() => import('./settings-layout'), 'SettingsLayout');
export const ApiKeysPage = lazyRouteComponent(() => import('./api-keys-page'), 'ApiKeysPage');
export const MembersPage = lazyRouteComponent(() => import('./members-page'), 'MembersPage');
