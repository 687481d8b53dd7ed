import { lazyRouteComponent } from '@tanstack/react-router';

export const SignInPage = lazyRouteComponent(() => import('./sign-in-page'), 'SignInPage');
export const SignUpPage = lazyRouteComponent(() => import('./sign-in-page'), 'SignUpPage');
