import { lazyRouteComponent } from '@tanstack/react-router';

export const LandingPage = lazyRouteComponent(() => import('./landing-page'), 'LandingPage');
