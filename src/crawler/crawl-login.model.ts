import type { CrawlLoginBinding } from './crawl-login-binding.js';

/**
 * A project's crawl login, as the crawl uses it (opened) and as the API shows it (facts only). The facts are what a
 * user may see again; every value in CrawlLoginSecrets is write-only: stored sealed, never returned, never logged.
 */
export const CRAWL_LOGIN_KINDS = ['FORM', 'COOKIE', 'BASIC', 'BEARER', 'HEADER'] as const;
export type CrawlLoginKind = (typeof CRAWL_LOGIN_KINDS)[number];

export interface CrawlLoginNameValue {
  name: string;
  value: string;
}

/** The secret values: one sealed box per project (crawl-login.service.ts). */
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

/** What the API shows of a crawl login: never a secret value. */
export interface CrawlLoginFacts {
  projectId: string;
  kind: CrawlLoginKind;
  loginUrl: string | null;
  usernameField: string | null;
  passwordField: string | null;
  headerName: string | null;
  cookieNames: string[];
  extraFieldNames: string[];
  /** Where it was set for (the plain copy the API shows; the crawl obeys the sealed one). */
  boundTo: CrawlLoginBinding;
  /**
   * Why the login is suspended — the project's host or scope grew past where it was set for — or null when audits use
   * it. An owner or admin confirms it for the current settings (or sets it again).
   */
  suspendedReason: string | null;
  updatedAt: Date;
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
