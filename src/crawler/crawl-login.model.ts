import type { CrawlLoginBinding } from './crawl-login-binding.js';

/**
 * A crawl login, as the crawl uses it (opened) and as a user may see it again (its fields). Every value in
 * CrawlLoginSecrets is write-only: stored sealed (src/projects: crawl-login.service.ts), never returned, never logged.
 */
export const CRAWL_LOGIN_KINDS = ['FORM', 'COOKIE', 'BASIC', 'BEARER', 'HEADER'] as const;
export type CrawlLoginKind = (typeof CRAWL_LOGIN_KINDS)[number];

export interface CrawlLoginNameValue {
  name: string;
  value: string;
}

/** The secret values: one sealed box per project (src/projects/crawl-login.service.ts). */
export interface CrawlLoginSecrets {
  /** FORM and BASIC. */
  username?: string;
  password?: string;
  /** FORM: more fields posted with the form (a tenant, a "remember me"). */
  extraFields?: CrawlLoginNameValue[];
  /** COOKIE: the cookies sent with every request to the project's hosts. */
  cookies?: CrawlLoginNameValue[];
  /** BEARER. */
  token?: string;
  /** HEADER: the value of headerName. */
  headerValue?: string;
}

/**
 * The fields of a login a user may see again (never a secret value): what the API shows of a project's login
 * (src/projects: CrawlLoginFacts adds its project, binding and state) and what `seo audit --login` validates.
 */
export interface CrawlLoginFields {
  kind: CrawlLoginKind;
  loginUrl: string | null;
  usernameField: string | null;
  passwordField: string | null;
  headerName: string | null;
  cookieNames: string[];
  extraFieldNames: string[];
}

/** A crawl login opened for a crawl. */
export interface CrawlLogin {
  kind: CrawlLoginKind;
  loginUrl: string | null;
  usernameField: string | null;
  passwordField: string | null;
  headerName: string | null;
  /** Where it may be sent (sealed with the secrets): the crawl checks every request against it. */
  binding: CrawlLoginBinding;
  secrets: CrawlLoginSecrets;
}
