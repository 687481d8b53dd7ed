import { siteKey } from '../seo/page/index.js';
import { compileScopePatterns } from './crawl-scope.js';

/**
 * Where a crawl login was set for (issue 47): the project's start URL and crawl scope at the moment an owner or admin
 * set or confirmed it. It is sealed with the secrets (crawl-login.service.ts), so neither a later change of the
 * project's settings nor a database edit can send the secrets anywhere else:
 * - the crawl sends them only to URLs inside the binding (`credentialTargets`), whatever the project says now;
 * - a project whose host or scope has grown past the binding (`bindingMismatch`) has its login suspended: its audits
 *   fail with the reason until an owner or admin confirms the login for the new settings (or sets it again).
 */
export interface CrawlLoginBinding {
  /** The project's start URL: its host (www-insensitive), port and scheme decide which hosts get the credentials. */
  startUrl: string;
  /** Subdomains of the start host were in scope. */
  includeSubdomains: boolean;
  /** The include patterns (path and query): none means every path. */
  include: string[];
  /** The exclude patterns: an excluded URL never gets the credentials. */
  exclude: string[];
}

/** The binding of a project's current start URL and scope settings. */
export function bindingOf(project: { url: string; settings?: unknown }): CrawlLoginBinding {
  const settings = (project.settings ?? {}) as {
    crawlSubdomains?: boolean;
    includePatterns?: string[];
    excludePatterns?: string[];
  };
  return {
    startUrl: project.url,
    includeSubdomains: settings.crawlSubdomains === true,
    include: [...(settings.includePatterns ?? [])],
    exclude: [...(settings.excludePatterns ?? [])],
  };
}

/** A binding read back from sealed or stored JSON: null when it is not one (a damaged or foreign value). */
export function parseBinding(value: unknown): CrawlLoginBinding | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (typeof v.startUrl !== 'string' || typeof v.includeSubdomains !== 'boolean') return null;
  if (!strings(v.include) || !strings(v.exclude)) return null;
  try {
    new URL(v.startUrl);
  } catch {
    return null;
  }
  return { startUrl: v.startUrl, includeSubdomains: v.includeSubdomains, include: v.include, exclude: v.exclude };
}

/** The hosts of a start URL and subdomains flag: its host (www-insensitive, same port), its subdomains when asked. */
export function credentialHosts(scope: { startUrl: string; includeSubdomains?: boolean }): (url: URL) => boolean {
  const start = new URL(scope.startUrl);
  const site = siteKey(start.host);
  const siteHostname = siteKey(start.hostname);
  const https = start.protocol === 'https:';
  return (url) => {
    if (url.protocol !== 'https:' && (https || url.protocol !== 'http:')) return false;
    if (siteKey(url.host) === site) return true;
    if (!scope.includeSubdomains || url.port !== start.port) return false;
    return url.hostname.toLowerCase().endsWith(`.${siteHostname}`);
  };
}

/**
 * The URLs a bound login may be sent to: the binding's hosts (credentialHosts), minus the URLs its exclude patterns
 * match. Include patterns select pages, not the assets and data those pages load, so they do not narrow this.
 */
export function credentialTargets(binding: CrawlLoginBinding): (url: URL) => boolean {
  const hosts = credentialHosts(binding);
  // The crawl scope's own matcher (percent-decoded, case-folded excludes); a pattern that no longer compiles
  // excludes everything rather than nothing.
  const patterns = compileScopePatterns([], binding.exclude, { unusableExclude: 'excludes-everything' });
  return (url) => hosts(url) && !patterns.excluded(url);
}

/**
 * Why a login bound to `bound` may not be used for a project whose settings are now `now` — they would send it
 * somewhere it was not set for — or null when `now` stays inside it (the same or a narrower scope). Widening is:
 * another host (or port), https to http, subdomains turned on, an include pattern added to a list that had some or
 * the last one removed, an exclude pattern removed or changed. Anything else (a new start path on the same host,
 * subdomains turned off, an exclude added, includes narrowed) keeps the login.
 */
export function bindingMismatch(bound: CrawlLoginBinding, now: CrawlLoginBinding): string | null {
  const was = new URL(bound.startUrl);
  const is = new URL(now.startUrl);
  const set = `it was set for ${describeBinding(bound)}`;
  if (siteKey(was.host) !== siteKey(is.host)) return `the project's host changed to ${is.host}: ${set}`;
  if (was.protocol === 'https:' && is.protocol !== 'https:') return `the project's start URL is now plain http: ${set}`;
  if (now.includeSubdomains && !bound.includeSubdomains) return `subdomains were added to the crawl scope: ${set}`;
  const includeWider =
    bound.include.length > 0 && (now.include.length === 0 || now.include.some((p) => !bound.include.includes(p)));
  if (includeWider) return `the crawl scope's include patterns were widened: ${set}`;
  const removed = bound.exclude.filter((p) => !now.exclude.includes(p));
  if (removed.length) return `the exclude pattern ${removed.join(', ')} was removed from the crawl scope: ${set}`;
  return null;
}

/** `example.com (and its subdomains), every path` — how a binding reads in a message. */
export function describeBinding(b: CrawlLoginBinding): string {
  const url = new URL(b.startUrl);
  const parts = [`${url.protocol}//${url.host}${b.includeSubdomains ? ' and its subdomains' : ''}`];
  if (b.include.length) parts.push(`include ${b.include.join(', ')}`);
  if (b.exclude.length) parts.push(`exclude ${b.exclude.join(', ')}`);
  return parts.join('; ');
}
