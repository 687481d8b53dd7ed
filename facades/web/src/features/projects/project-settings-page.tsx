import { useState, type FormEvent } from 'react';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Checkbox, Form, Label, Radio, RadioGroup } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { FormProblem, Loading, PageLoadError } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  ProjectSettingsDocument,
  UpdateProjectSettingsDocument,
  type ProjectSettingsFieldsFragment,
  type ProjectSettingsInput,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import { DeleteProjectDialog } from './project-dialogs';
import { AuditScheduleSection } from './audit-schedule-section';
import { ProjectSectionHeader } from './project-section-header';

const route = getRouteApi('/app/projects/$projectId/settings');

/** The form's labels by API field path: the API's validation errors show at these fields. */
const LABELS: Record<string, string> = {
  name: 'Name',
  url: 'Start URL',
  'settings.maxPages': 'Pages per audit',
  'settings.maxDepth': 'Link depth',
  'settings.crawlDelayMs': 'Delay between requests (ms)',
  'settings.userAgent': 'User-Agent',
  'settings.respectRobots': 'Honour robots.txt',
  'settings.rankCountry': 'Country',
  'settings.rankLanguage': 'Language',
  'settings.rankDevice': 'Device',
  'settings.rankIncludeSubdomains': 'Count subdomains as the project',
};

const INT_FIELDS = ['maxPages', 'maxDepth', 'crawlDelayMs'] as const;
const TEXT_FIELDS = ['userAgent', 'rankCountry', 'rankLanguage'] as const;

type Settings = ProjectSettingsFieldsFragment['settings'];

/**
 * The form's values as the API's input: an empty field clears the setting (the platform default applies);
 * numbers that are not whole are reported at their field before anything is sent.
 */
function readSettings(
  data: FormData,
  current: Settings,
): { input: ProjectSettingsInput; errors: Record<string, string> } {
  const input: ProjectSettingsInput = {};
  const errors: Record<string, string> = {};
  for (const key of INT_FIELDS) {
    const raw = String(data.get(`settings.${key}`) ?? '').trim();
    if (!raw) input[key] = null;
    else if (/^-?\d+$/.test(raw)) input[key] = Number(raw);
    else errors[`settings.${key}`] = `${LABELS[`settings.${key}`]} must be a whole number`;
  }
  for (const key of TEXT_FIELDS) {
    const raw = String(data.get(`settings.${key}`) ?? '').trim();
    input[key] = raw || null;
  }
  const device = String(data.get('settings.rankDevice') ?? 'default');
  input.rankDevice = device === 'default' ? null : device;
  // A checkbox left as it was keeps an unset setting unset (the default may change with the platform).
  const robots = data.get('settings.respectRobots') === 'on';
  input.respectRobots = current.respectRobots === null && robots ? null : robots;
  const subdomains = data.get('settings.rankIncludeSubdomains') === 'on';
  input.rankIncludeSubdomains = current.rankIncludeSubdomains === null && !subdomains ? null : subdomains;
  return { input, errors };
}

function SettingsForm({ project, pagesLimit }: { project: ProjectSettingsFieldsFragment; pagesLimit: number | null }) {
  const [result, update] = useMutation(UpdateProjectSettingsDocument);
  const [submitted, setSubmitted] = useState(false);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const problem = submitted ? problemOf(result.error, LABELS) : null;
  const fieldErrors = { ...(problem?.fields ?? {}), ...localErrors };
  const s = project.settings;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const { input: settings, errors } = readSettings(data, s);
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

      <section className="card" aria-labelledby="rank-title">
        <h2 id="rank-title">Rank tracking</h2>
        <p className="muted small">Where and how positions are checked for keywords added from now on.</p>
        <div className="form settings-grid">
          <TextField
            name="settings.rankCountry"
            label={LABELS['settings.rankCountry']}
            defaultValue={s.rankCountry ?? ''}
            placeholder="us"
            maxLength={2}
            description="Two-letter country code, e.g. de (default us)."
          />
          <TextField
            name="settings.rankLanguage"
            label={LABELS['settings.rankLanguage']}
            defaultValue={s.rankLanguage ?? ''}
            placeholder="en"
            maxLength={10}
            description="Language code, e.g. de or pt-br (default en)."
          />
        </div>
        <RadioGroup
          name="settings.rankDevice"
          className="radio-group"
          defaultValue={s.rankDevice ?? 'default'}
          orientation="horizontal"
          isInvalid={!!fieldErrors['settings.rankDevice']}
        >
          <Label className="field-label">{LABELS['settings.rankDevice']}</Label>
          <div className="radio-row">
            <Radio value="default" className="radio">
              <span className="radio-dot" aria-hidden="true" />
              Default (desktop)
            </Radio>
            <Radio value="desktop" className="radio">
              <span className="radio-dot" aria-hidden="true" />
              Desktop
            </Radio>
            <Radio value="mobile" className="radio">
              <span className="radio-dot" aria-hidden="true" />
              Mobile
            </Radio>
          </div>
        </RadioGroup>
        <Checkbox
          name="settings.rankIncludeSubdomains"
          className="checkbox"
          defaultSelected={s.rankIncludeSubdomains ?? false}
        >
          <span className="checkbox-box" aria-hidden="true" />
          {LABELS['settings.rankIncludeSubdomains']} (a result on blog.{project.domain} counts)
        </Checkbox>
      </section>

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

/** A numeric crawl setting, labelled as the API's errors name it; empty means the platform default. */
function NumberSetting(props: {
  name: 'settings.maxPages' | 'settings.maxDepth' | 'settings.crawlDelayMs';
  value: number | null | undefined;
  placeholder?: string;
  description: string;
}) {
  return (
    <TextField
      name={props.name}
      label={LABELS[props.name]}
      type="number"
      inputMode="numeric"
      defaultValue={props.value?.toString() ?? ''}
      placeholder={props.placeholder}
      description={props.description}
    />
  );
}

function DangerZone({ project }: { project: ProjectSettingsFieldsFragment }) {
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  return (
    <section className="card danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title">Danger zone</h2>
      <p>Deleting the project removes its audits, keywords, competitors and reports. This cannot be undone.</p>
      <Button variant="danger" onPress={() => setDeleting(true)}>
        Delete project
      </Button>
      <DeleteProjectDialog
        project={deleting ? project : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate({ to: '/projects' })}
      />
    </section>
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
      <DangerZone project={project} />
    </section>
  );
}
