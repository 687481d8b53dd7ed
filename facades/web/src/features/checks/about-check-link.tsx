import { Link } from '@tanstack/react-router';

/** "About this check": the check's page in the public catalog (rule, why, fix, how it counts in the score). */
export function AboutCheckLink({ code }: { code: string }) {
  return (
    <Link to="/checks/$code" params={{ code }}>
      About this check
    </Link>
  );
}

/** The project settings page's way to the project's check settings (mounted there with one line). */
export function ProjectChecksLink({ projectId }: { projectId: string }) {
  return (
    <section aria-labelledby="project-checks-link" className="settings-section">
      <h2 id="project-checks-link">Checks</h2>
      <p>
        Switch audit checks off or change their severity for this project:{' '}
        <Link to="/projects/$projectId/checks" params={{ projectId }}>
          Check settings
        </Link>
        .
      </p>
    </section>
  );
}
