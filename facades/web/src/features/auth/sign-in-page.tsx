import { getRouteApi } from '@tanstack/react-router';
import { AuthForm } from './auth-form';

const route = getRouteApi('/sign-in');

export function SignInPage() {
  const { redirect } = route.useSearch();
  return <AuthForm mode="sign-in" redirectTo={redirect} />;
}

export function SignUpPage() {
  return <AuthForm mode="sign-up" />;
}
