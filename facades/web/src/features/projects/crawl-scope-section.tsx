import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Label, Radio, RadioGroup, Switch } from 'react-aria-components';
import { SelectField } from '../../components/select-field';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { type ProjectSettingsFieldsFragment, type RenderingMode } from '../../gql/graphql';
import { DeleteProjectDialog } from './project-dialogs';

const RENDERING_OPTIONS = [
  { id: 'HTML', label: 'HTML only' },
  { id: 'BROWSER', label: 'Render JavaScript in a browser' },
] as const;

/** The form's labels by API field path: the API's validation errors show at these fields. */
export const LABELS: Record<string, string> = {
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

export type Settings = ProjectSettingsFieldsFragment['settings'];

/**
 * What the crawl may fetch (include and exclude patterns, subdomains, list mode, query parameters) and how pages are
 * read. Part of the settings form: its fields are saved with "Save settings", and the API's errors show beside them.
 */
export function CrawlScopeSection({ settings: s, domain }: { settings: Settings; domain: string }) {
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
export function NumberSetting(props: {
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

export function DangerZone({ project }: { project: ProjectSettingsFieldsFragment }) {
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
