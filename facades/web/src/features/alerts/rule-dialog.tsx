import { useState, type FormEvent } from 'react';
import { Checkbox, CheckboxGroup, Form, Label } from 'react-aria-components';
import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/confirm-dialog';
import { SelectField } from '../../components/select-field';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  AlertRuleSegmentsDocument,
  CreateAlertRuleDocument,
  UpdateAlertRuleDocument,
  type AlertChannel,
  type AlertRuleFieldsFragment,
  type AlertRuleInput,
  type AlertRuleKind,
  type AlertScoreCategory,
  type AlertSeverity,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';

export const KIND_OPTIONS: { id: AlertRuleKind; label: string }[] = [
  { id: 'SCORE_DROP', label: 'A score drops' },
  { id: 'NEW_ISSUES', label: 'New issues appear' },
  { id: 'PAGE_REGRESSION', label: 'A page breaks or leaves the index' },
  { id: 'VITAL_POOR', label: 'A Core Web Vital becomes poor' },
  { id: 'KEYWORD_DROP', label: 'A keyword drops' },
  { id: 'KEYWORD_LEFT_TOP10', label: 'A keyword leaves the top 10' },
  { id: 'KEYWORD_CANNIBALISED', label: 'A keyword is cannibalised' },
];

const CATEGORY_OPTIONS: { id: AlertScoreCategory; label: string }[] = [
  { id: 'OVERALL', label: 'Overall' },
  { id: 'META', label: 'Meta' },
  { id: 'CONTENT', label: 'Content' },
  { id: 'LINKS', label: 'Links' },
  { id: 'TECHNICAL', label: 'Technical' },
  { id: 'PERFORMANCE', label: 'Performance' },
];

const SEVERITY_OPTIONS: { id: AlertSeverity; label: string }[] = [
  { id: 'CRITICAL', label: 'Critical only' },
  { id: 'WARNING', label: 'Warnings and critical' },
  { id: 'NOTICE', label: 'Any severity' },
];

/** When each kind is evaluated, said under the choice. */
const WHEN: Record<AlertRuleKind, string> = {
  SCORE_DROP: 'Checked when an audit completes, against the previous completed audit.',
  NEW_ISSUES: 'Checked when an audit completes: issues the previous completed audit did not have.',
  PAGE_REGRESSION: 'Checked when an audit completes: a page that answered 200 now answers 4xx/5xx, or is noindex.',
  VITAL_POOR: 'Checked when an audit completes: LCP, CLS, INP, TBT, FCP or TTFB crosses into “poor”.',
  KEYWORD_DROP: 'Checked after each rank check, between a keyword’s last two checks.',
  KEYWORD_LEFT_TOP10: 'Checked after each rank check: a keyword that ranked 1-10 ranks lower or not at all.',
  KEYWORD_CANNIBALISED:
    'Checked after each rank check: two or more of the site’s URLs rank for a keyword, fewer did at the check before.',
};

const LABELS = {
  points: 'Points',
  positions: 'Positions',
  channels: 'Send to',
  category: 'Score',
  segmentId: 'Watch',
};

/** The kinds that may watch one segment instead of the whole site. */
const SEGMENT_KINDS: readonly AlertRuleKind[] = ['SCORE_DROP', 'NEW_ISSUES'];
const SITE = 'SITE';

/** Add or edit a rule: what it watches, its one parameter, where its alerts go, and whether it is on. */
export function RuleDialog({
  isOpen,
  onOpenChange,
  projectId,
  rule,
  onSaved,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  projectId: string;
  /** The rule to edit; null adds one. */
  rule: AlertRuleFieldsFragment | null;
  onSaved(message: string): void;
}) {
  const [kind, setKind] = useState<AlertRuleKind>(rule?.kind ?? 'SCORE_DROP');
  const [category, setCategory] = useState<AlertScoreCategory>(rule?.category ?? 'OVERALL');
  const [points, setPoints] = useState(String(rule?.points ?? 5));
  const [severity, setSeverity] = useState<AlertSeverity>(rule?.minSeverity ?? 'CRITICAL');
  const [positions, setPositions] = useState(String(rule?.positions ?? 5));
  const [channels, setChannels] = useState<string[]>(rule?.channels ?? ['EMAIL', 'WEBHOOK']);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [segment, setSegment] = useState(rule?.segmentId ?? SITE);
  const [{ data: segmentsData }] = useQuery({ query: AlertRuleSegmentsDocument, variables: { projectId } });
  const segments = segmentsData?.project.segments ?? [];
  const [created, create] = useMutation(CreateAlertRuleDocument);
  const [updated, update] = useMutation(UpdateAlertRuleDocument);
  const [submitted, setSubmitted] = useState(false);
  const result = rule ? updated : created;
  const problem = submitted ? problemOf(result.error, LABELS) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const input: AlertRuleInput = { kind, channels: channels as AlertChannel[], enabled };
    if (kind === 'SCORE_DROP') Object.assign(input, { category, points: Number(points) });
    if (kind === 'NEW_ISSUES') input.minSeverity = severity;
    if (kind === 'KEYWORD_DROP') input.positions = Number(positions);
    if (SEGMENT_KINDS.includes(kind) && segment !== SITE) input.segmentId = segment;
    const res = rule ? await update({ id: rule.id, input }) : await create({ projectId, input });
    if (!res.error) {
      onSaved(rule ? 'Rule saved.' : 'Rule added.');
      onOpenChange(false);
    }
  }

  return (
    <FormDialog isOpen={isOpen} onOpenChange={onOpenChange} title={rule ? 'Edit alert rule' : 'Add alert rule'}>
      <Form className="form" onSubmit={(e) => void submit(e)} validationErrors={problem?.fields}>
        <FormProblem problem={problem} />
        <SelectField
          label="Alert when"
          options={KIND_OPTIONS}
          value={kind}
          onChange={(id) => setKind(id as AlertRuleKind)}
        />
        <p className="muted small">{WHEN[kind]}</p>
        {kind === 'SCORE_DROP' && (
          <>
            <SelectField
              label="Score"
              options={CATEGORY_OPTIONS}
              value={category}
              onChange={(id) => setCategory(id as AlertScoreCategory)}
            />
            <TextField
              name="points"
              label="Points"
              type="number"
              inputMode="numeric"
              value={points}
              onChange={setPoints}
              isRequired
              description="Alert when the score falls by this many points or more (1-100)."
            />
          </>
        )}
        {kind === 'NEW_ISSUES' && (
          <SelectField
            label="Minimum severity"
            options={SEVERITY_OPTIONS}
            value={severity}
            onChange={(id) => setSeverity(id as AlertSeverity)}
          />
        )}
        {kind === 'KEYWORD_DROP' && (
          <TextField
            name="positions"
            label="Positions"
            type="number"
            inputMode="numeric"
            value={positions}
            onChange={setPositions}
            isRequired
            description="Alert when a keyword falls by this many places or more (1-100), or out of the results."
          />
        )}
        {SEGMENT_KINDS.includes(kind) && segments.length > 0 && (
          <>
            <SelectField
              label="Watch"
              options={[{ id: SITE, label: 'The whole site' }, ...segments.map((g) => ({ id: g.id, label: g.name }))]}
              value={segment}
              onChange={setSegment}
            />
            <p className="muted small">A segment is watched on its own URLs: its score, and issues new on them.</p>
          </>
        )}
        <CheckboxGroup
          className="field"
          name="channels"
          value={channels}
          onChange={setChannels}
          isInvalid={!!problem?.fields.channels}
        >
          <Label className="field-label">Send to</Label>
          <div className="checkbox-row">
            <Checkbox value="EMAIL" className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
              E-mail (members who chose it)
            </Checkbox>
            <Checkbox value="WEBHOOK" className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
              Webhooks (every enabled endpoint)
            </Checkbox>
          </div>
          {problem?.fields.channels && (
            <p className="field-error" role="alert">
              {problem.fields.channels}
            </p>
          )}
        </CheckboxGroup>
        <Checkbox className="checkbox" isSelected={enabled} onChange={setEnabled}>
          <span className="checkbox-box" aria-hidden="true" />
          Enabled
        </Checkbox>
        <div className="dialog-actions">
          <Button onPress={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" isPending={result.fetching}>
            {rule ? 'Save rule' : 'Add rule'}
          </Button>
        </div>
      </Form>
    </FormDialog>
  );
}
