import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';

/** The audit a URL belongs to, and the audited site's host: URLs on it open the audit's page view. */
export interface PageScope {
  projectId: string;
  auditId: string;
  siteHost: string | null;
}

/** The host without a leading "www." (the crawler counts www. and the bare host as one site). */
export function siteHostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Whether the page view can show this URL: an http(s) URL of the audited site. */
export function opensPageView(scope: PageScope, url: string): boolean {
  return scope.siteHost !== null && /^https?:/i.test(url) && siteHostOf(url) === scope.siteHost;
}

/** A link to the page view of one crawled URL of an audit. */
export function PageLink({
  scope,
  url,
  children,
  className,
}: {
  scope: Pick<PageScope, 'projectId' | 'auditId'>;
  url: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Link
      to="/projects/$projectId/audits/$auditId/page"
      params={{ projectId: scope.projectId, auditId: scope.auditId }}
      search={{ url }}
      className={className}
    >
      {children}
    </Link>
  );
}
