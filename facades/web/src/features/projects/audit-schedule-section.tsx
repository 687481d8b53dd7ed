import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Form, Label, Radio, RadioGroup } from 'react-aria-components';
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
import { MONTH_DAYS, RunsTable, TimeZoneField, WEEKDAYS, inZone, knownZone } from './audit-schedule-parts';

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
          <TimeZoneField
            label={LABELS['auditSchedule.timeZone']}
            value={zone}
            onInput={(value) => {
              setZone(value);
              edited('auditSchedule.timeZone');
            }}
            onSelect={setZone}
          />
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
