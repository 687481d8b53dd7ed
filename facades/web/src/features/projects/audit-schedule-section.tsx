import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation } from 'urql';
import {
  ComboBox,
  FieldError,
  Form,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Radio,
  RadioGroup,
  Text,
} from 'react-aria-components';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select-field';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  SetAuditScheduleDocument,
  type AuditScheduleFrequency,
  type AuditScheduleInput,
  type AuditScheduleSettingsFragment,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';

/** The section's labels by API field path: the API's validation errors show at these fields. */
const LABELS: Record<string, string> = {
  'auditSchedule.frequency': 'Frequency',
  'auditSchedule.time': 'Time of day',
  'auditSchedule.timeZone': 'Time zone',
  'auditSchedule.dayOfWeek': 'Day of the week',
  'auditSchedule.dayOfMonth': 'Day of the month',
};

const FREQUENCIES: { id: AuditScheduleFrequency; label: string }[] = [
  { id: 'OFF', label: 'Off' },
  { id: 'DAILY', label: 'Daily' },
  { id: 'WEEKLY', label: 'Weekly' },
  { id: 'MONTHLY', label: 'Monthly' },
];

/** ISO days of the week (1 = Monday), named in the reader's language. */
const WEEKDAYS = Array.from({ length: 7 }, (_, i) => ({
  id: String(i + 1),
  // 2024-01-01 was a Monday.
  label: new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, i + 1)),
}));

const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => ({
  id: String(i + 1),
  label: i + 1 === 31 ? '31 (the last day of every month)' : String(i + 1),
}));

/** Every IANA zone the browser knows, UTC included (some browsers leave it out of the list). */
function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** The zone's name as Intl knows it, or null for a name it does not know. */
function knownZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A time in the schedule's zone, with the zone named: "Wednesday, 26 November 2026 at 09:00 (Europe/Berlin)". */
function inZone(iso: string, timeZone: string, style: 'full' | 'medium' = 'full'): string {
  const text = new Intl.DateTimeFormat(undefined, { dateStyle: style, timeStyle: 'short', timeZone }).format(
    new Date(iso),
  );
  return `${text} (${timeZone})`;
}

type Runs = AuditScheduleSettingsFragment['scheduledRuns'];

function RunsTable({ projectId, runs, timeZone }: { projectId: string; runs: Runs; timeZone: string }) {
  if (runs.length === 0) return <p className="muted small">No scheduled audit has run yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table table-compact">
        <caption className="visually-hidden">Latest scheduled audits</caption>
        <thead>
          <tr>
            <th scope="col">Scheduled for</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td>
                <time dateTime={run.scheduledAt}>{inZone(run.scheduledAt, timeZone, 'medium')}</time>
              </td>
              <td>
                {run.outcome === 'STARTED' && run.auditId ? (
                  <Link to="/projects/$projectId/audits/$auditId" params={{ projectId, auditId: run.auditId }}>
                    Audit started
                  </Link>
                ) : (
                  <>Skipped: {run.message ?? run.reason}</>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Scheduled audits of a project: how often, at what local time in which IANA time zone (the browser's by default),
 * on which day; the next run as the server computes it, and the latest runs with why any was skipped.
 */
export function AuditScheduleSection({ project }: { project: AuditScheduleSettingsFragment }) {
  const stored = project.auditSchedule;
  const [result, save] = useMutation(SetAuditScheduleDocument);
  const [frequency, setFrequency] = useState<AuditScheduleFrequency>(stored.frequency);
  const [time, setTime] = useState(stored.time);
  const [zone, setZone] = useState(stored.timeZone);
  const [dayOfWeek, setDayOfWeek] = useState(String(stored.dayOfWeek ?? 1));
  const [dayOfMonth, setDayOfMonth] = useState(String(stored.dayOfMonth ?? 1));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const zones = useMemo(timeZones, []);
  const problem = useMemo(() => (submitted ? problemOf(result.error, LABELS) : null), [submitted, result.error]);
  // One object per change: react-aria shows the errors of a new object again, over the reader's edits.
  const fieldErrors = useMemo(() => ({ ...(problem?.fields ?? {}), ...localErrors }), [problem, localErrors]);
  /** An edited field no longer shows the error this form found in it. */
  const edited = (field: string) =>
    setLocalErrors((errors) => {
      if (!(field in errors)) return errors;
      const { [field]: _gone, ...rest } = errors;
      return rest;
    });

  // A schedule never set (off, on the default UTC) starts from the reader's own zone. After the first render, so that
  // a page rendered on the server hydrates with the same value.
  useEffect(() => {
    if (stored.frequency === 'OFF' && stored.timeZone === 'UTC') {
      const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (browser && knownZone(browser)) setZone(browser);
    }
  }, [stored.frequency, stored.timeZone]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    setSubmitted(false);
    const canonical = knownZone(zone.trim());
    const errors: Record<string, string> = {};
    if (!canonical) errors['auditSchedule.timeZone'] = 'Time zone must be one of the list, such as Europe/Berlin';
    if (!/^\d{2}:\d{2}$/.test(time)) errors['auditSchedule.time'] = 'Time of day must be a time such as 09:00';
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    const input: AuditScheduleInput = { frequency, time, timeZone: canonical };
    if (frequency === 'WEEKLY') input.dayOfWeek = Number(dayOfWeek);
    if (frequency === 'MONTHLY') input.dayOfMonth = Number(dayOfMonth);
    setSubmitted(true);
    const res = await save({ id: project.id, input });
    if (res.data) {
      setZone(res.data.updateProject.auditSchedule.timeZone);
      setSaved(frequency === 'OFF' ? 'Saved. Scheduled audits are off.' : 'Saved.');
    }
  }

  const next = stored.nextRunAt;
  return (
    <section className="card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Scheduled audits</h2>
      <p className="muted small">
        The project is audited at this local time, in the time zone you choose. A run that finds an audit already queued
        or running is skipped; scheduled audits count against the plan like audits you start.
      </p>
      <Form
        className="form"
        onSubmit={(event) => void submit(event)}
        validationErrors={fieldErrors}
        // The checks run in submit (and on the server): an error shown must not keep the browser from submitting.
        validationBehavior="aria"
      >
        <FormProblem problem={problem} />
        <RadioGroup
          name="auditSchedule.frequency"
          className="radio-group"
          value={frequency}
          onChange={(value) => setFrequency(value as AuditScheduleFrequency)}
          orientation="horizontal"
        >
          <Label className="field-label">{LABELS['auditSchedule.frequency']}</Label>
          <div className="radio-row">
            {FREQUENCIES.map((f) => (
              <Radio key={f.id} value={f.id} className="radio">
                <span className="radio-dot" aria-hidden="true" />
                {f.label}
              </Radio>
            ))}
          </div>
        </RadioGroup>
        <div className="form settings-grid">
          <TextField
            name="auditSchedule.time"
            label={LABELS['auditSchedule.time']}
            type="time"
            value={time}
            onChange={(value) => {
              setTime(value);
              edited('auditSchedule.time');
            }}
            isRequired
            description="24-hour clock, in the time zone below."
          />
          <ComboBox
            name="auditSchedule.timeZone"
            className="field"
            inputValue={zone}
            onInputChange={(value) => {
              setZone(value);
              edited('auditSchedule.timeZone');
            }}
            onSelectionChange={(key) => key !== null && setZone(String(key))}
            allowsCustomValue
            isRequired
          >
            <Label className="field-label">{LABELS['auditSchedule.timeZone']}</Label>
            <Input className="input" />
            <Text slot="description" className="field-description">
              Type to search, e.g. Berlin or New_York.
            </Text>
            <FieldError className="field-error" />
            <Popover className="popover">
              <ListBox className="listbox" items={zones.map((z) => ({ id: z }))}>
                {(item) => (
                  <ListBoxItem id={item.id} className="listbox-item" textValue={item.id}>
                    {item.id}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </ComboBox>
          {frequency === 'WEEKLY' && (
            <SelectField
              label={LABELS['auditSchedule.dayOfWeek']}
              options={WEEKDAYS}
              value={dayOfWeek}
              onChange={setDayOfWeek}
            />
          )}
          {frequency === 'MONTHLY' && (
            <SelectField
              label={LABELS['auditSchedule.dayOfMonth']}
              options={MONTH_DAYS}
              value={dayOfMonth}
              onChange={setDayOfMonth}
            />
          )}
        </div>
        {frequency === 'MONTHLY' && Number(dayOfMonth) > 28 && (
          <p className="muted small">In a month without that day, the audit runs on the month’s last day.</p>
        )}
        <div className="form-actions">
          <Button type="submit" variant="primary" isPending={result.fetching}>
            Save schedule
          </Button>
          <p className="muted" role="status">
            {saved}
          </p>
        </div>
      </Form>
      <p>
        {next ? (
          <>
            Next audit: <time dateTime={next}>{inZone(next, stored.timeZone)}</time>
          </>
        ) : (
          'Scheduled audits are off.'
        )}
      </p>
      <h3>Latest scheduled audits</h3>
      <RunsTable projectId={project.id} runs={project.scheduledRuns} timeZone={stored.timeZone} />
    </section>
  );
}
