import { lazyRouteComponent } from '@tanstack/react-router';

export const AccountPage = lazyRouteComponent(() => import('./account-page'), 'AccountPage');
export const ForgotPasswordPage = lazyRouteComponent(() => import('./forgot-password-page'), 'ForgotPasswordPage');
export const ResetPasswordPage = lazyRouteComponent(() => import('./reset-password-page'), 'ResetPasswordPage');
