import { lazy } from 'react';

/** The signed-in header (organization switcher, plan and usage, user menu): loaded only for signed-in users. */
export const AppHeader = lazy(() => import('./app-header').then((m) => ({ default: m.AppHeader })));
