import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import { formatDateTime } from '../../lib/format';
import { Outcome, Section } from './account-sections';

export interface SessionRow {
  id: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  userAgent: string | null;
  ipAddress: string | null;
}

/** A short description of a browser from its User-Agent header. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Firefox\//.test(userAgent)
    ? 'Firefox'
    : /Edg\//.test(userAgent)
      ? 'Edge'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(/[ /]/)[0];
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

export function SessionsSection({ currentToken }: { currentToken: string }) {
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const load = useCallback(async () => {
    const res = await callAuth(() => authClient.listSessions());
    if (res.error || !res.data) return setError(authFailureMessage(res.error));
    setSessions(
      res.data
        .map((s) => ({
          id: s.id,
          token: s.token,
          createdAt: new Date(s.createdAt).toISOString(),
          updatedAt: new Date(s.updatedAt).toISOString(),
          userAgent: s.userAgent ?? null,
          ipAddress: s.ipAddress ?? null,
        }))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)),
    );
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function revoke(row: SessionRow) {
    setError(null);
    const res = await callAuth(() => authClient.revokeSession({ token: row.token }));
    if (res.error) setError(authFailureMessage(res.error));
    else setDone(`Signed out ${deviceOf(row.userAgent)}.`);
    await load();
  }

  async function revokeOthers() {
    setPending(true);
    setError(null);
    const res = await callAuth(() => authClient.revokeOtherSessions());
    setPending(false);
    if (res.error) setError(authFailureMessage(res.error));
    else setDone('Every other session was signed out.');
    await load();
  }

  const columns: Column<NonNullable<typeof sessions>[number]>[] = [
    {
      id: 'device',
      header: 'Device',
      rowHeader: true,
      cell: (s) => (
        <>
          {deviceOf(s.userAgent)}
          {s.token === currentToken && <span className="badge"> This browser</span>}
        </>
      ),
    },
    { id: 'ip', header: 'IP address', cell: (s) => s.ipAddress ?? '—' },
    {
      id: 'created',
      header: 'Signed in',
      cell: (s) => <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>,
    },
    {
      id: 'updated',
      header: 'Last active',
      cell: (s) => <time dateTime={s.updatedAt}>{formatDateTime(s.updatedAt)}</time>,
    },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      className: 'cell-actions',
      cell: (s) =>
        s.token !== currentToken && (
          <Button
            onPress={() => void revoke(s)}
            aria-label={`Sign out ${deviceOf(s.userAgent)}, signed in ${formatDateTime(s.createdAt)}`}
          >
            Sign out
          </Button>
        ),
    },
  ];
  const others = sessions?.filter((s) => s.token !== currentToken).length ?? 0;
  return (
    <Section id="sessions-title" title="Active sessions">
      <Outcome error={error} done={done} />
      <DataTable
        columns={columns}
        rows={sessions}
        rowKey={(s) => s.id}
        label="Active sessions"
        caption="Active sessions"
        loading={!error}
        loadingLabel="Loading sessions…"
      />
      <div className="form-actions">
        <Button onPress={() => void revokeOthers()} isPending={pending} isDisabled={others === 0}>
          Sign out everywhere else
        </Button>
      </div>
    </Section>
  );
}
