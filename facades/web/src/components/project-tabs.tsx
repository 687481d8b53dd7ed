import { Link } from '@tanstack/react-router';

/** The sections in the order shown; the overview is active only on its own path, not under the others. */
const SECTIONS = [
  { to: '/projects/$projectId', label: 'Overview', exact: true },
  { to: '/projects/$projectId/keywords', label: 'Keywords', exact: false },
  { to: '/projects/$projectId/competitors', label: 'Competitors', exact: false },
  { to: '/projects/$projectId/technical', label: 'Technical', exact: false },
  { to: '/projects/$projectId/alerts', label: 'Alerts', exact: false },
  { to: '/projects/$projectId/report', label: 'Report', exact: false },
  { to: '/projects/$projectId/settings', label: 'Settings', exact: false },
] as const;

const CURRENT = { 'aria-current': 'page' as const };

/**
 * The sections of one project, shown under its heading on every project page. Each section is its own route
 * (and its own code chunk); the active one is marked with aria-current.
 */
export function ProjectTabs({ projectId }: { projectId: string }) {
  return (
    <nav aria-label="Project sections" className="tabs-nav">
      {SECTIONS.map(({ to, label, exact }) => (
        <Link key={to} to={to} params={{ projectId }} activeOptions={{ exact }} activeProps={CURRENT}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
