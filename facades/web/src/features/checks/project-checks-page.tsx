import { useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Switch } from 'react-aria-components';
import {
  ProjectChecksDocument,
  ResetCheckSettingDocument,
  SetCheckSettingDocument,
  type IssueCategory,
  type ProjectChecksQuery,
  type Severity,
} from '../../gql/graphql';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { FormProblem, Loading, PageLoadError } from '../../components/status';
import { SelectField } from '../../components/select-field';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';
import { ProjectSectionHeader } from '../../components/section-header';
import { CATALOG_CATEGORIES, CATALOG_SEVERITIES } from './catalog-search';
import { TableWrap } from '../../components/table-wrap';
import { WontFixSection } from './wont-fix-section';

const route = getRouteApi('/app/projects/$projectId/checks');

type Setting = ProjectChecksQuery['project']['checkSettings'][number];

const SEVERITY_OPTIONS = CATALOG_SEVERITIES.map((s) => ({ id: s, label: SEVERITY_LABEL[s] }));

/** One check's row: enable switch, severity select, reset; each change is saved at once. */
function CheckRow({
  projectId,
  setting,
  onProblem,
}: {
  projectId: string;
  setting: Setting;
  onProblem(p: ApiProblem | null): void;
}) {
  const [{ fetching: saving }, save] = useMutation(SetCheckSettingDocument);
  const [{ fetching: resetting }, reset] = useMutation(ResetCheckSettingDocument);
  const busy = saving || resetting;
  const apply = async (enabled: boolean, severity: Severity) => {
    const result = await save({
      projectId,
      input: { code: setting.code, enabled, severity: setting.banded ? null : severity },
    });
    onProblem(result.error ? problemOf(result.error) : null);
  };
  const severityId = `severity-${setting.code}`;
  return (
    <tr className={setting.enabled ? undefined : 'check-row-disabled'}>
      <th scope="row">
        <Link to="/checks/$code" params={{ code: setting.code }}>
          {setting.title}
        </Link>
        <div className="muted small">
          <code>{setting.code}</code> · {CATEGORY_LABEL[setting.category]}
        </div>
      </th>
      <td>
        <Switch
          className="switch"
          isSelected={setting.enabled}
          isDisabled={busy}
          onChange={(enabled) => void apply(enabled, setting.severity)}
          aria-label={`${setting.title}: enabled`}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-thumb" />
          </span>
          <span className="switch-label">{setting.enabled ? 'On' : 'Off'}</span>
        </Switch>
      </td>
      <td>
        {setting.banded ? (
          <span className="muted small">By measured value</span>
        ) : (
          <SelectField
            id={severityId}
            label={`Severity of ${setting.title}`}
            className="visually-hidden-label"
            options={SEVERITY_OPTIONS}
            value={setting.severity}
            onChange={(id) => void apply(setting.enabled, id as Severity)}
          />
        )}
        {setting.severity !== setting.defaultSeverity && !setting.banded && (
          <div className="muted small">Default: {SEVERITY_LABEL[setting.defaultSeverity]}</div>
        )}
      </td>
      <td>
        {setting.overridden ? (
          <Button
            variant="quiet"
            isPending={resetting}
            onPress={() =>
              void reset({ projectId, code: setting.code }).then((result) =>
                onProblem(result.error ? problemOf(result.error) : null),
              )
            }
            aria-label={`Reset to default: ${setting.title}`}
          >
            Reset to default
          </Button>
        ) : (
          <span className="muted small">Default</span>
        )}
      </td>
    </tr>
  );
}

/** /projects/:id/checks: every catalog check as this project's audits apply it. */
export function ProjectChecksPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }] = useQuery({ query: ProjectChecksDocument, variables: { id: projectId } });
  const [category, setCategory] = useState<IssueCategory | 'ALL'>('ALL');
  const [changed, setChanged] = useState<'ALL' | 'CHANGED'>('ALL');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  useDocumentTitle(data ? `Checks · ${data.project.name}` : 'Project checks');

  if (fetching && !data) return <Loading label="Loading the checks…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const settings = data.project.checkSettings;
  const shown = settings.filter(
    (s) => (category === 'ALL' || s.category === category) && (changed === 'ALL' || s.overridden),
  );
  const overridden = settings.filter((s) => s.overridden).length;
  return (
    <section className="page" aria-labelledby="project-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={data.project.name}
        section="Checks"
        title="Checks"
        titleId="project-title"
        description={
          <p className="muted">
            Switch a check off or change its severity for this project&apos;s next audits ({overridden} changed). A
            disabled check is not reported and counts nowhere in the score; a changed severity is used for the issue and
            priced as that severity. Past audits keep the settings they ran with.{' '}
            <Link to="/checks">About the checks</Link>
          </p>
        }
      />
      <div className="filters" role="group" aria-label="Filter the checks">
        <SelectField
          label="Category"
          value={category}
          options={[
            { id: 'ALL', label: 'All categories' },
            ...CATALOG_CATEGORIES.map((c) => ({ id: c, label: CATEGORY_LABEL[c] })),
          ]}
          onChange={(id) => setCategory(id as IssueCategory | 'ALL')}
        />
        <SelectField
          label="Show"
          value={changed}
          options={[
            { id: 'ALL', label: 'Every check' },
            { id: 'CHANGED', label: 'Changed only' },
          ]}
          onChange={(id) => setChanged(id as 'ALL' | 'CHANGED')}
        />
      </div>
      <FormProblem problem={problem} />
      <p className="muted" aria-live="polite">
        {shown.length} of {settings.length} checks
      </p>
      <TableWrap label="Check settings">
        <table className="table table-compact check-settings-table">
          <caption className="visually-hidden">Check settings of {data.project.name}</caption>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Enabled</th>
              <th scope="col">Severity</th>
              <th scope="col">Setting</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((s) => (
              <CheckRow key={s.code} projectId={projectId} setting={s} onProblem={setProblem} />
            ))}
          </tbody>
        </table>
      </TableWrap>
      <WontFixSection projectId={projectId} />
    </section>
  );
}
