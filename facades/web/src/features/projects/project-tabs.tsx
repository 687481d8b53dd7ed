import { Link } from '@tanstack/react-router';

/**
 * The sections of one project, shown under its heading on every project page. Each section is its own route
 * (and its own code chunk); the active one is marked with aria-current.
 */
export function ProjectTabs({ projectId }: { projectId: string }) {
  const current = { 'aria-current': 'page' as const };
  const params = { projectId };
  return (
    <nav aria-label="Project sections" className="tabs-nav">
      <Link to="/projects/$projectId" params={params} activeOptions={{ exact: true }} activeProps={current}>
        Overview
      </Link>
      <Link to="/projects/$projectId/keywords" params={params} activeProps={current}>
        Keywords
      </Link>
      <Link to="/projects/$projectId/competitors" params={params} activeProps={current}>
        Competitors
      </Link>
      <Link to="/projects/$projectId/technical" params={params} activeProps={current}>
        Technical
      </Link>
      <Link to="/projects/$projectId/report" params={params} activeProps={current}>
        Report
      </Link>
      <Link to="/projects/$projectId/settings" params={params} activeProps={current}>
        Settings
      </Link>
    </nav>
  );
}
