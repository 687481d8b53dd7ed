import type { ReactNode } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import type { CrawlLoginKind, ProjectCrawlLoginQuery } from '../../gql/graphql';

/** The section's labels by API field path: the API's validation errors show at these fields. */
export const LABELS: Record<string, string> = {
  kind: 'Sign in with',
  loginUrl: 'Login page URL',
  usernameField: 'Username field name',
  passwordField: 'Password field name',
  username: 'Username',
  password: 'Password',
  cookies: 'Cookies',
  token: 'Bearer token',
  headerName: 'Header name',
  headerValue: 'Header value',
};

export const KINDS: { id: CrawlLoginKind; label: string }[] = [
  { id: 'FORM', label: 'Login form' },
  { id: 'COOKIE', label: 'Cookies' },
  { id: 'BASIC', label: 'HTTP basic auth' },
  { id: 'BEARER', label: 'Bearer token' },
  { id: 'HEADER', label: 'Custom header' },
];

type StoredLogin = ProjectCrawlLoginQuery['project']['crawlLogin'];
export type SecretField = 'username' | 'password' | 'cookies' | 'token' | 'headerValue';

/** What the project signs in with and where it is sent, or why the login is suspended (with the confirmation). */
export function LoginStatus({
  stored,
  confirmPending,
  onConfirm,
}: {
  stored: StoredLogin;
  confirmPending: boolean;
  onConfirm(): void;
}) {
  return (
    <>
      {stored ? (
        <p className="small" role="status">
          Signing in with: {KINDS.find((k) => k.id === stored.kind)?.label ?? stored.kind}
          {stored.kind === 'COOKIE' && stored.cookieNames.length > 0 ? ` (${stored.cookieNames.join(', ')})` : ''}
          {stored.kind === 'HEADER' && stored.headerName ? ` (${stored.headerName})` : ''}. Updated{' '}
          <time dateTime={stored.updatedAt}>{new Date(stored.updatedAt).toLocaleString()}</time>. Sent only to{' '}
          {new URL(stored.boundTo.startUrl).host}
          {stored.boundTo.includeSubdomains ? ' and its subdomains' : ''}.
        </p>
      ) : (
        <p className="small" role="status">
          No crawl login: audits crawl the site signed out.
        </p>
      )}
      {stored?.suspendedReason && (
        <div className="small" role="alert">
          <p>
            Suspended: {stored.suspendedReason}. Audits fail until an owner or admin confirms the login for the
            project&apos;s current URL and scope.
          </p>
          <Button variant="primary" onPress={onConfirm} isPending={confirmPending}>
            Confirm login for the current URL and scope
          </Button>
        </div>
      )}
    </>
  );
}

/** The fields of one kind of login: the form's facts and header name as typed, the write-only secrets as given. */
export function LoginFields({
  kind,
  shown,
  setFact,
  errors,
  secretField,
}: {
  kind: CrawlLoginKind;
  shown: Record<string, string>;
  setFact(field: string, value: string): void;
  errors: Record<string, string>;
  secretField(field: SecretField, what: string): ReactNode;
}) {
  return (
    <>
      {kind === 'FORM' && (
        <>
          <TextField
            name="loginUrl"
            label={LABELS.loginUrl!}
            type="url"
            value={shown.loginUrl}
            onChange={(value) => setFact('loginUrl', value)}
            isRequired
            description="The page with the login form, on this project's site."
            errorMessage={errors.loginUrl ?? null}
          />
          <TextField
            name="usernameField"
            label={LABELS.usernameField!}
            value={shown.usernameField}
            onChange={(value) => setFact('usernameField', value)}
            isRequired
            description="The name attribute of the form's username input."
            errorMessage={errors.usernameField ?? null}
          />
          <TextField
            name="passwordField"
            label={LABELS.passwordField!}
            value={shown.passwordField}
            onChange={(value) => setFact('passwordField', value)}
            isRequired
            errorMessage={errors.passwordField ?? null}
          />
          {secretField('username', 'username')}
          {secretField('password', 'password')}
        </>
      )}
      {kind === 'BASIC' && (
        <>
          {secretField('username', 'username')}
          {secretField('password', 'password')}
        </>
      )}
      {kind === 'COOKIE' && secretField('cookies', 'cookie list (name=value; name2=value2)')}
      {kind === 'BEARER' && secretField('token', 'token')}
      {kind === 'HEADER' && (
        <>
          <TextField
            name="headerName"
            label={LABELS.headerName!}
            value={shown.headerName}
            onChange={(value) => setFact('headerName', value)}
            isRequired
            description="E.g. X-Preview-Token."
            errorMessage={errors.headerName ?? null}
          />
          {secretField('headerValue', 'value')}
        </>
      )}
    </>
  );
}
