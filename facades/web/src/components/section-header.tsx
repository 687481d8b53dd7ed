import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { ProjectTabs } from './project-tabs';

/**
 * The top of a project's section page (Keywords, Competitors, Technical, Settings): the breadcrumb back to the
 * project, the section's heading (`titleId` labels the page's <section>) with a line under it and its actions, and
 * the project's section tabs.
 */
export function ProjectSectionHeader({
  projectId,
  projectName,
  section,
  title = section,
  titleId,
  description,
  actions,
}: {
  projectId: string;
  projectName: string;
  /** The breadcrumb's last step. */
  section: string;
  /** The heading, when it is not the section's name. */
  title?: ReactNode;
  titleId: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/projects">Projects</Link>
        <span aria-hidden="true">/</span>
        <Link to="/projects/$projectId" params={{ projectId }}>
          {projectName}
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{section}</span>
      </nav>
      <div className="page-header">
        <div>
          <h1 id={titleId}>{title}</h1>
          {description}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      <ProjectTabs projectId={projectId} />
    </>
  );
}
