import { lazyRouteComponent } from '@tanstack/react-router';

export const LandingPage = lazyRouteComponent(() => import('./landing-page'), 'LandingPage');
export { PUBLIC_PAGES, usePublicPageHead, type PublicPage, type PublicPath } from './public-pages';
