import { useMemo, useState, type FormEvent } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Checkbox, Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { FormProblem, Loading, PageLoadError } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  ProjectSettingsDocument,
  UpdateProjectSettingsDocument,
  type ProjectSettingsFieldsFragment,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import { AuditScheduleSection } from './audit-schedule-section';
import { CrawlLoginSection } from './crawl-login-section';
import { ProjectSectionHeader } from '../../components/section-header';
import { ProjectChecksLink } from '../checks';
import { CrawlScopeSection, DangerZone, LABELS, NumberSetting } from './crawl-scope-section';
import { RankTrackingSection } from './rank-tracking-section';
import { ExtractionSection } from './extraction-section';
import { SegmentsSection } from './segments-section';
import { readSettings, scopeLabels, withListErrorsAtTheirField } from './settings-form-data';

const route = getRouteApi('/app/projects/$projectId/settings');

function SettingsForm({ project, pagesLimit }: { project: ProjectSettingsFieldsFragment; pagesLimit: number | null }) {
  const [result, update] = useMutation(UpdateProjectSettingsDocument);
  const [submitted, setSubmitted] = useState(false);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const s = project.settings;
  const [urlCount, setUrlCount] = useState(s.startUrls.length);
  const problem = useMemo(
    () => (submitted ? problemOf(result.error, scopeLabels(urlCount)) : null),
    [submitted, result.error, urlCount],
  );
  // One object while nothing changes: react-aria shows a server error again whenever it receives a new one.
  const fieldErrors = useMemo(
    () => ({ ...withListErrorsAtTheirField(problem?.fields ?? {}), ...localErrors }),
    [problem, localErrors],
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const { input: settings, errors } = readSettings(data, s);
    setUrlCount(settings.startUrls?.length ?? 0);
    setLocalErrors(errors);
    setSaved(null);
    setSubmitted(false);
    if (Object.keys(errors).length > 0) return;
    const name = String(data.get('name') ?? '').trim();
    const url = String(data.get('url') ?? '').trim();
    setSubmitted(true);
    const res = await update({
      id: project.id,
      input: {
        settings,
        ...(name !== project.name ? { name } : {}),
        ...(url !== project.url ? { url } : {}),
      },
    });
    if (res.data) {
      const next = res.data.updateProject;
      setSaved(
        next.url !== project.url
          ? `Saved. The next audit starts from ${next.url}; past audits keep the URL they crawled.`
          : 'Saved.',
      );
    }
  }

  return (
    <Form className="form settings-form" onSubmit={(event) => void submit(event)} validationErrors={fieldErrors}>
      <FormProblem problem={problem} />
      <section className="card" aria-labelledby="general-title">
        <h2 id="general-title">General</h2>
        <div className="form">
          <TextField name="name" label={LABELS.name} isRequired defaultValue={project.name} maxLength={100} />
          <TextField
            key={project.url}
            name="url"
            label={LABELS.url}
            isRequired
            defaultValue={project.url}
            maxLength={2048}
            description={
              <>
                The page the crawl starts from. Write the scheme (https:// or http://) to use it as given; a bare domain
                such as example.com is tried over https first, then over http.
              </>
            }
          />
        </div>
      </section>

      <section className="card" aria-labelledby="crawl-title">
        <h2 id="crawl-title">Crawling</h2>
        <p className="muted small">Leave a field empty to use the platform default.</p>
        <div className="form settings-grid">
          <NumberSetting
            name="settings.maxPages"
            value={s.maxPages}
            placeholder={pagesLimit !== null ? formatNumber(pagesLimit) : undefined}
            description={
              pagesLimit !== null
                ? `Up to ${formatNumber(pagesLimit)} on your plan (the default).`
                : 'Up to your plan’s limit.'
            }
          />
          <NumberSetting
            name="settings.maxDepth"
            value={s.maxDepth}
            placeholder="10"
            description="Clicks from the start URL, 0 to 50 (default 10)."
          />
          <NumberSetting
            name="settings.crawlDelayMs"
            value={s.crawlDelayMs}
            placeholder="0"
            description="Pause before each request, 0 to 60,000 ms (default 0)."
          />
          <TextField
            name="settings.userAgent"
            label={LABELS['settings.userAgent']}
            defaultValue={s.userAgent ?? ''}
            maxLength={200}
            description="The crawler’s User-Agent header (default: the platform’s own)."
          />
        </div>
        <Checkbox
          name="settings.respectRobots"
          className="checkbox"
          defaultSelected={s.respectRobots ?? true}
          isInvalid={!!fieldErrors['settings.respectRobots']}
        >
          <span className="checkbox-box" aria-hidden="true" />
          {LABELS['settings.respectRobots']} (recommended; off crawls pages robots.txt disallows)
        </Checkbox>
      </section>

      <CrawlScopeSection settings={s} domain={project.domain} />

      <RankTrackingSection settings={s} domain={project.domain} deviceInvalid={!!fieldErrors['settings.rankDevice']} />

      <div className="form-actions">
        <Button type="submit" variant="primary" isPending={result.fetching}>
          Save settings
        </Button>
        <p className="muted" role="status">
          {saved}
        </p>
      </div>
    </Form>
  );
}

export function ProjectSettingsPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }] = useQuery({ query: ProjectSettingsDocument, variables: { projectId } });
  useDocumentTitle(data ? `Settings · ${data.project.name}` : 'Project settings');

  if (fetching && !data) return <Loading label="Loading the settings…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const project = data.project;
  return (
    <section className="page" aria-labelledby="project-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={project.name}
        section="Settings"
        title={project.name}
        titleId="project-title"
        description={<p className="muted url-text">{project.url}</p>}
      />
      <SettingsForm project={project} pagesLimit={data.viewer.organization?.usage.pagesPerAuditLimit ?? null} />
      <AuditScheduleSection key={project.id} project={project} />
      <CrawlLoginSection key={`login-${project.id}`} projectId={project.id} />
      <SegmentsSection key={`segments-${project.id}`} projectId={project.id} />
      <ExtractionSection key={`extraction-${project.id}`} projectId={project.id} />
      <ProjectChecksLink projectId={project.id} />
      <DangerZone project={project} />
    </section>
  );
}
