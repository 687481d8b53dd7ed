import { useMemo, useState, type FormEvent } from 'react';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Checkbox, Form, Label, Radio, RadioGroup, Switch } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { FormProblem, Loading, PageLoadError } from '../../components/status';
import { TextField } from '../../components/text-field';
import { SelectField } from '../../components/select-field';
import {
  ProjectSettingsDocument,
  UpdateProjectSettingsDocument,
  type ProjectSettingsFieldsFragment,
  type ProjectSettingsInput,
  type CrawlListMode,
  type QueryParameterMode,
  type RenderingMode,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import { DeleteProjectDialog } from './project-dialogs';
import { AuditScheduleSection } from './audit-schedule-section';
import { CrawlLoginSection } from './crawl-login-section';
import { ProjectSectionHeader } from './project-section-header';
import { ProjectChecksLink } from '../checks/about-check-link';

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
  'settings.renderingMode': 'Rendering',
  'settings.includePatterns': 'Include patterns',
  'settings.excludePatterns': 'Exclude patterns',
  'settings.crawlSubdomains': 'Crawl subdomains',
  'settings.listMode': 'List mode',
  'settings.startUrls': 'List URLs',
  'settings.queryParameters': 'Query parameters',
  'settings.droppedParameters': 'Parameters to drop',
};

const RENDERING_OPTIONS = [
  { id: 'HTML', label: 'HTML only' },
  { id: 'BROWSER', label: 'Render JavaScript in a browser' },
] as const;

/** One entry per line, blank lines left out. */
const lines = (data: FormData, name: string) =>
  String(data.get(name) ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The API names each list URL by its index (`settings.startUrls.3`): the form shows those errors at the one field
 * that holds them all.
 */
function scopeLabels(urlCount: number): Record<string, string> {
  const labels = { ...LABELS };
  for (let i = 0; i < Math.max(urlCount, 1); i++) labels[`settings.startUrls.${i}`] = LABELS['settings.startUrls'];
  return labels;
}

function withListErrorsAtTheirField(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const key = /^settings\.startUrls\.\d+$/.test(path) ? 'settings.startUrls' : path;
    if (!(key in out)) out[key] = message;
  }
  return out;
}

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
  // Crawl scope: an empty list or a default choice clears the setting.
  const include = lines(data, 'settings.includePatterns');
  const exclude = lines(data, 'settings.excludePatterns');
  const urls = lines(data, 'settings.startUrls');
  input.includePatterns = include.length ? include : null;
  input.excludePatterns = exclude.length ? exclude : null;
  input.startUrls = urls.length ? urls : null;
  const crawlSubdomains = data.get('settings.crawlSubdomains') === 'on';
  input.crawlSubdomains = current.crawlSubdomains === null && !crawlSubdomains ? null : crawlSubdomains;
  const listMode = String(data.get('settings.listMode') ?? 'OFF') as CrawlListMode;
  input.listMode = listMode === 'OFF' ? null : listMode;
  const query = String(data.get('settings.queryParameters') ?? 'KEEP') as QueryParameterMode;
  input.queryParameters = query === 'KEEP' ? null : query;
  const names = String(data.get('settings.droppedParameters') ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  input.droppedParameters = names.length ? names : null;
  const rendering = String(data.get('settings.renderingMode') ?? 'HTML') as RenderingMode;
  input.renderingMode = rendering === 'HTML' ? null : rendering;
  return { input, errors };
}

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

/**
 * What the crawl may fetch (include and exclude patterns, subdomains, list mode, query parameters) and how pages are
 * read. Part of the settings form: its fields are saved with "Save settings", and the API's errors show beside them.
 */
function CrawlScopeSection({ settings: s, domain }: { settings: Settings; domain: string }) {
  // The select is not a form control: its value goes with the form through a hidden input.
  const [rendering, setRendering] = useState<RenderingMode>(s.renderingMode ?? 'HTML');
  return (
    <section className="card" aria-labelledby="scope-title">
      <h2 id="scope-title">Crawl scope</h2>
      <p className="muted small">
        Patterns match a URL’s path and query. A glob is matched whole: <code>*</code> stays within a path segment,{' '}
        <code>**</code> crosses segments, <code>?</code> is one character. Write a regular expression between slashes to
        search anywhere in the path and query. robots.txt is always obeyed as well.
      </p>
      <div className="form settings-grid">
        <TextField
          name="settings.includePatterns"
          label={LABELS['settings.includePatterns']}
          multiline
          rows={4}
          defaultValue={s.includePatterns.join('\n')}
          placeholder={'/blog/**\n/docs/*.html'}
          description={
            <>
              One per line; when any is given, only matching URLs are crawled (the start URL must match). Examples:{' '}
              <code>/blog/**</code>, <code>/[?&amp;]page=\d+/</code>.
            </>
          }
        />
        <TextField
          name="settings.excludePatterns"
          label={LABELS['settings.excludePatterns']}
          multiline
          rows={4}
          defaultValue={s.excludePatterns.join('\n')}
          placeholder={'**?sort=*\n/cart/**'}
          description={
            <>
              One per line; matching URLs are never fetched nor reported. Examples: <code>/[?&amp;]sort=/</code>,{' '}
              <code>/cart/**</code>, <code>/\.pdf$/i</code>.
            </>
          }
        />
      </div>
      <Switch name="settings.crawlSubdomains" className="switch" defaultSelected={s.crawlSubdomains ?? false}>
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">
          {LABELS['settings.crawlSubdomains']} (pages on blog.{domain} and the like are crawled, each under its own
          robots.txt)
        </span>
      </Switch>
      <RadioGroup name="settings.listMode" className="radio-group" defaultValue={s.listMode ?? 'OFF'}>
        <Label className="field-label">{LABELS['settings.listMode']}</Label>
        <div className="radio-row">
          <Radio value="OFF" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Off: follow links
          </Radio>
          <Radio value="URLS" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Only the URLs below
          </Radio>
          <Radio value="SITEMAP" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Only the sitemap’s URLs
          </Radio>
        </div>
      </RadioGroup>
      <TextField
        name="settings.startUrls"
        label={LABELS['settings.startUrls']}
        multiline
        rows={4}
        defaultValue={s.startUrls.join('\n')}
        placeholder={`https://${domain}/pricing`}
        description={
          'One URL per line, on this site. In list mode links are checked but not followed, and orphan pages are ' +
          'not reported.'
        }
      />
      <RadioGroup name="settings.queryParameters" className="radio-group" defaultValue={s.queryParameters ?? 'KEEP'}>
        <Label className="field-label">{LABELS['settings.queryParameters']}</Label>
        <div className="radio-row">
          <Radio value="KEEP" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Keep
          </Radio>
          <Radio value="DROP_ALL" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Drop all
          </Radio>
          <Radio value="DROP_LISTED" className="radio">
            <span className="radio-dot" aria-hidden="true" />
            Drop the listed ones
          </Radio>
        </div>
      </RadioGroup>
      <TextField
        name="settings.droppedParameters"
        label={LABELS['settings.droppedParameters']}
        defaultValue={s.droppedParameters.join(', ')}
        placeholder="utm_source, sessionid"
        description="Names separated by commas. URLs that differ only by dropped parameters are crawled once."
      />
      <SelectField
        label={LABELS['settings.renderingMode']}
        options={RENDERING_OPTIONS}
        value={rendering}
        onChange={(id) => setRendering(id as RenderingMode)}
      />
      <input type="hidden" name="settings.renderingMode" value={rendering} />
      <p className="muted small">
        Rendering runs each page’s JavaScript in headless Chromium, as search engines do: audits of sites built with
        React, Vue or Next see what visitors see, but take several times longer.
      </p>
    </section>
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
      <CrawlLoginSection key={`login-${project.id}`} projectId={project.id} />
      <ProjectChecksLink projectId={project.id} />
      <DangerZone project={project} />
    </section>
  );
}
