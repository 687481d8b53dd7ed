import { useMemo, useState } from 'react';
import { Form } from 'react-aria-components';
import { useMutation } from 'urql';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/confirm-dialog';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import { SelectField } from '../../components/select-field';
import { AddProjectKeywordsDocument, type KeywordRowFragment, type Plan } from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { MAX_TERM_LENGTH, MAX_TERMS_PER_ADD, normalizeTerm, planLines, type LinePlan } from './keyword-rows';
import { DEVICES, type KeywordDevice } from './search-params';

const PLAN_NAME: Record<Plan, string> = { FREE: 'Free', PRO: 'Pro', ENTERPRISE: 'Enterprise' };

export interface AddOutcome {
  added: number;
  skipped: number;
}

function lineMessage(p: LinePlan): string | null {
  switch (p.status) {
    case 'too-long':
      return `Line ${p.line}: longer than ${MAX_TERM_LENGTH} characters (${p.term.length}); shorten it.`;
    case 'duplicate':
      return `Line ${p.line}: “${p.term}” repeats line ${p.of}; added once.`;
    case 'tracked':
      return `Line ${p.line}: “${p.term}” is already tracked for this country, device and language; skipped.`;
    default:
      return null;
  }
}

/** The API's `keywords.N` error paths are indexes into the terms sent: back to the line they came from. */
function lineOfPath(problem: ApiProblem | null, sent: LinePlan[]): string | null {
  const match = problem && /keywords\.(\d+)/.exec(problem.message);
  const plan = match ? sent[Number(match[1])] : undefined;
  return plan ? `Line ${plan.line}: ${problem!.message.replace(/keywords\.\d+\s*/, '')}` : null;
}

/** What the addition will do against the plan's quota and the batch limit, announced as it changes. */
function AddPlan({
  lines,
  fresh,
  toSend,
  used,
  limit,
  plan,
}: {
  lines: number;
  fresh: number;
  toSend: number;
  used: number;
  limit: number;
  plan: Plan;
}) {
  const remaining = Math.max(0, limit - used);
  const planName = PLAN_NAME[plan];
  return (
    <div className="add-plan" role="status" aria-live="polite">
      <p>
        {lines === 0 ? 'Nothing to add yet.' : `${plural(fresh, 'new keyword')} of ${plural(lines, 'line')}.`}{' '}
        {planName} plan: {formatNumber(used)} of {formatNumber(limit)} keywords used in this project,{' '}
        {formatNumber(remaining)} left.
      </p>
      {fresh > remaining && (
        <p className="field-error">
          Quota reached: {plural(fresh, 'new keyword')} but only {formatNumber(remaining)} left on the {planName} plan (
          {formatNumber(limit)} per project). Remove {formatNumber(fresh - remaining)}{' '}
          {fresh - remaining === 1 ? 'line' : 'lines'}, remove tracked keywords, or upgrade.
        </p>
      )}
      {toSend > MAX_TERMS_PER_ADD && (
        <p className="field-error">
          {plural(toSend, 'keyword')} at once: add at most {MAX_TERMS_PER_ADD} per addition.
        </p>
      )}
    </div>
  );
}

/**
 * Bulk add: one keyword per line, for one country, device and language. Before sending, every line says what will
 * happen to it (repeat, already tracked, too long) and the plan's quota is shown; the API decides (all or nothing).
 */
export function AddKeywordsDialog({
  isOpen,
  onOpenChange,
  projectId,
  keywords,
  defaults,
  limit,
  plan,
  onAdded,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  projectId: string;
  keywords: readonly KeywordRowFragment[];
  defaults: { country: string; language: string; device: KeywordDevice };
  limit: number;
  plan: Plan;
  onAdded(outcome: AddOutcome): void;
}) {
  const [text, setText] = useState('');
  const [country, setCountry] = useState(defaults.country);
  const [language, setLanguage] = useState(defaults.language);
  const [device, setDevice] = useState<KeywordDevice>(defaults.device);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [{ fetching }, add] = useMutation(AddProjectKeywordsDocument);

  const target = { country: country.trim().toLowerCase(), language: language.trim().toLowerCase(), device };
  const trackedKeys = useMemo(
    () =>
      new Set(
        keywords
          .filter((k) => k.country === target.country && k.language === target.language && k.device === target.device)
          .map((k) => normalizeTerm(k.term)?.key ?? k.term),
      ),
    [keywords, target.country, target.language, target.device],
  );
  const lines = useMemo(() => planLines(text, trackedKeys), [text, trackedKeys]);
  const fresh = lines.filter((l) => l.status === 'new');
  const tooLong = lines.filter((l) => l.status === 'too-long');
  const toSend = fresh;
  const remaining = Math.max(0, limit - keywords.length);
  const overQuota = fresh.length > remaining;
  const overBatch = toSend.length > MAX_TERMS_PER_ADD;
  const notes = lines.map(lineMessage).filter((m): m is string => m !== null);
  const blocked = fresh.length === 0 || tooLong.length > 0 || overQuota || overBatch;

  const close = (open: boolean) => {
    if (!open) {
      setText('');
      setProblem(null);
    }
    onOpenChange(open);
  };

  async function submit() {
    setProblem(null);
    const res = await add({
      projectId,
      input: { keywords: toSend.map((l) => l.term), country: target.country, language: target.language, device },
    });
    if (res.error) {
      const p = problemOf(res.error, { country: 'Country', language: 'Language', device: 'Device' });
      const line = lineOfPath(p, toSend);
      setProblem(p && line ? { ...p, message: line, fields: {} } : p);
      return;
    }
    const added = res.data?.addKeywords.length ?? 0;
    onAdded({ added, skipped: lines.length - added });
    close(false);
  }

  return (
    <FormDialog isOpen={isOpen} onOpenChange={close} title="Add keywords" isDismissable={!fetching}>
      <Form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) void submit();
        }}
      >
        <TextField
          label="Keywords, one per line"
          multiline
          rows={8}
          value={text}
          onChange={setText}
          autoFocus
          description={
            `Up to ${MAX_TERMS_PER_ADD} per addition, ${MAX_TERM_LENGTH} characters each. ` +
            'Repeats and keywords already tracked are skipped.'
          }
        />
        <div className="keyword-target">
          <TextField
            label="Country"
            value={country}
            onChange={setCountry}
            maxLength={2}
            description="ISO code, e.g. us, gb, de"
            errorMessage={problem?.fields.country}
          />
          <TextField
            label="Language"
            value={language}
            onChange={setLanguage}
            maxLength={8}
            description="e.g. en, de, pt-br"
            errorMessage={problem?.fields.language}
          />
          <SelectField
            label="Device"
            options={DEVICES.map((d) => ({ id: d, label: d === 'desktop' ? 'Desktop' : 'Mobile' }))}
            value={device}
            onChange={(id) => setDevice(id as KeywordDevice)}
          />
        </div>

        <AddPlan
          lines={lines.length}
          fresh={fresh.length}
          toSend={toSend.length}
          used={keywords.length}
          limit={limit}
          plan={plan}
        />
        {notes.length > 0 && (
          <ul className="line-notes" aria-label="Problems by line">
            {notes.slice(0, 50).map((n) => (
              <li key={n} className={n.includes('longer than') ? 'field-error' : 'muted'}>
                {n}
              </li>
            ))}
            {notes.length > 50 && <li className="muted">…and {notes.length - 50} more.</li>}
          </ul>
        )}
        <FormProblem problem={problem} />
        <div className="dialog-actions">
          <Button onPress={() => close(false)} isDisabled={fetching}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" isPending={fetching} isDisabled={blocked}>
            {fresh.length > 0 ? `Add ${plural(fresh.length, 'keyword')}` : 'Add keywords'}
          </Button>
        </div>
      </Form>
    </FormDialog>
  );
}
