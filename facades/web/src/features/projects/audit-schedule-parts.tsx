import { useMemo } from 'react';
import { Link } from '@tanstack/react-router';
import { ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import type { AuditScheduleSettingsFragment } from '../../gql/graphql';

/** ISO days of the week (1 = Monday), named in the reader's language. */
export const WEEKDAYS = Array.from({ length: 7 }, (_, i) => ({
  id: String(i + 1),
  // 2024-01-01 was a Monday.
  label: new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, i + 1)),
}));

export const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => ({
  id: String(i + 1),
  label: i + 1 === 31 ? '31 (the last day of every month)' : String(i + 1),
}));

/** Every IANA zone the browser knows, UTC included (some browsers leave it out of the list). */
function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** The zone's name as Intl knows it, or null for a name it does not know. */
export function knownZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A time in the schedule's zone, with the zone named: "Wednesday, 26 November 2026 at 09:00 (Europe/Berlin)". */
export function inZone(iso: string, timeZone: string, style: 'full' | 'medium' = 'full'): string {
  const text = new Intl.DateTimeFormat(undefined, { dateStyle: style, timeStyle: 'short', timeZone }).format(
    new Date(iso),
  );
  return `${text} (${timeZone})`;
}

type Runs = AuditScheduleSettingsFragment['scheduledRuns'];

export function RunsTable({ projectId, runs, timeZone }: { projectId: string; runs: Runs; timeZone: string }) {
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

/** The schedule's IANA time zone: typed (searching the browser's list) or picked from it. */
export function TimeZoneField({
  label,
  value,
  onInput,
  onSelect,
}: {
  label: string;
  value: string;
  onInput(value: string): void;
  onSelect(zone: string): void;
}) {
  const zones = useMemo(timeZones, []);
  return (
    <ComboBox
      name="auditSchedule.timeZone"
      className="field"
      inputValue={value}
      onInputChange={onInput}
      onSelectionChange={(key) => key !== null && onSelect(String(key))}
      allowsCustomValue
      isRequired
    >
      <Label className="field-label">{label}</Label>
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
  );
}
