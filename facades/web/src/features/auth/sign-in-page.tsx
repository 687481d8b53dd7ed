import { getRouteApi } from '@tanstack/react-router';
import { AuthForm } from './auth-form';

const route = getRouteApi('/sign-in');
const signUpRoute = getRouteApi('/sign-up');

export function SignInPage() {
  const { redirect } = route.useSearch();
  return <AuthForm mode="sign-in" redirectTo={redirect} />;
}

export function SignUpPage() {
  const { redirect } = signUpRoute.useSearch();
  return <AuthForm mode="sign-up" redirectTo={redirect} />;
}
