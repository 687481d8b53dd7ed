/**
 * The credential-confinement half of the `team` drill (issue 47, item 2): an owner sets a crawl login on a project
 * (every kind: BASIC, BEARER, COOKIE, HEADER, FORM), and a member of the organization — who may not set or read the
 * login — points the project elsewhere and starts audits: the URL on another host name, on another loopback address
 * (127.0.0.2), on another port of the same host name, subdomains turned on, an exclude pattern removed. Canary servers
 * stand at each of those places and record every request. Expected: 0 credentials received by any canary (no
 * Cookie, Authorization or custom header, no form password), every such audit FAILED with the login's suspension as
 * its reason. Controls (so that a canary that counts nothing is not mistaken for a held line): each login is first
 * used by the owner's own audit and reaches the site signed in; in the full form an owner then confirms the widened
 * scope, and the subdomain canary does receive the credential.
 *
 * Use: `const setup = await teamCredentialsSetup()`, start the platform with `setup.env` merged into its env (the
 * canaries' host names must be fetchable), `await setup.run(platform, { quick, log })`, `await setup.close()`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formLoginFor, startMemberSite, type MemberAuth } from '../support/crawl-login-site.js';
import { apiClient, must, signUp, waitForAudit, type Account, type ApiClient } from './drill-http.js';
import type { Platform } from './platform.js';

interface Seen {
  host: string;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface CanaryServer {
  origin: string;
  requests: Seen[];
  close(): Promise<void>;
}

/** An HTTP canary on `address`: answers every request with a page linking to itself, and records it with its body. */
async function startHttpCanary(address: string, host: string, port = 0): Promise<CanaryServer> {
  const requests: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({
        host: String(req.headers.host ?? ''),
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
      });
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html lang="en"><head><title>Canary</title></head><body><h1>Canary</h1>' +
            '<a href="/members/">Members</a> <a href="/login">Sign in</a></body></html>',
        );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${actual}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const SECRET = {
  username: 'drill-crawler',
  password: 'Drill-pa55word-never-elsewhere',
  token: 'drill-bearer-token-0123456789abcdef',
  cookie: 'drill-cookie-value-9f8e7d6c',
  header: 'drill-header-value-5a4b3c2d',
};

/** The credentials a request carried: credential headers, and a form password in its body. */
function credentialsOf(r: Seen): string[] {
  const found = ['cookie', 'authorization', 'x-drill-token'].filter((h) => r.headers[h] !== undefined);
  if (r.body.includes(encodeURIComponent(SECRET.password)) || r.body.includes(SECRET.password)) found.push('password');
  return found;
}

type Kind = 'BASIC' | 'BEARER' | 'COOKIE' | 'HEADER' | 'FORM';
const KINDS: Kind[] = ['BASIC', 'BEARER', 'COOKIE', 'HEADER', 'FORM'];

/**
 * Other spellings of the excluded `/private/canary` (issue 61): percent-encoded, another case, an encoded slash and a
 * dot segment, a path parameter. The home page links them; the exclude covers them all, so none is ever requested.
 */
const OTHER_SPELLINGS = [
  '/%70rivate/canary',
  '/PRIVATE/canary',
  '/private%2Fcanary',
  '/public/..%2Fprivate/canary',
  '/private;x=1/canary',
];

type Attack = 'host' | 'address' | 'port' | 'subdomains' | 'exclude';
const ATTACKS: Attack[] = ['host', 'address', 'port', 'subdomains', 'exclude'];
const QUICK_ATTACKS: Attack[] = ['host', 'subdomains', 'exclude'];

export interface TeamCredentialsResult {
  figures: Record<string, number>;
  failures: string[];
}

export interface TeamCredentialsSetup {
  /** Environment the platform needs (the site's and canaries' names fetchable and pinned to loopback). */
  env: Record<string, string>;
  run(platform: Platform, opts: { quick: boolean; log: (line: string) => void }): Promise<TeamCredentialsResult>;
  close(): Promise<void>;
}

/** Starts the owner's site and the canaries; the platform is started afterwards with `env`. */
export async function teamCredentialsSetup(): Promise<TeamCredentialsSetup> {
  const id = Math.random().toString(36).slice(2, 8);
  const siteHost = `owner-${id}.team.drill.test`;
  const otherHost = `elsewhere-${id}.team.drill.test`;
  const subHost = `canary.${siteHost}`;
  const canaryHost = await startHttpCanary('127.0.0.1', otherHost);
  // Another loopback address (Linux routes 127.0.0.0/8 to lo): reachable only because the allow-list names it.
  const canaryAddress = await startHttpCanary('127.0.0.2', '127.0.0.2').catch(() => null);
  const canaryPort = await startHttpCanary('127.0.0.1', siteHost);
  const site = await startMemberSite(siteHost, () => canaryHost.origin);
  site.homeLinks.push(`http://${subHost}:${site.port}/sub-page`, '/private/canary', ...OTHER_SPELLINGS);
  const env = {
    SAFE_HTTP_ALLOW: [siteHost, otherHost, subHost, ...(canaryAddress ? ['127.0.0.2'] : [])].join(','),
    SAFE_HTTP_RESOLVE: `${siteHost}=127.0.0.1,${otherHost}=127.0.0.1,${subHost}=127.0.0.1`,
  };

  async function run(
    platform: Platform,
    { quick, log }: { quick: boolean; log: (line: string) => void },
  ): Promise<TeamCredentialsResult> {
    const failures: string[] = [];
    const expect = (ok: boolean, message: string) => {
      if (!ok) failures.push(message);
      return ok;
    };
    const figures: Record<string, number> = {
      loginKinds: 0,
      attackAudits: 0,
      attackAuditsFailedSuspended: 0,
      attackRequestsAtCanaries: 0,
      credentialsReceivedByCanaries: 0,
      controlCredentialedRequestsAtSite: 0,
      controlCredentialsAfterOwnerConfirmed: 0,
      excludedSpellingsRequested: 0,
      excludedSpellingsCredentials: 0,
      memberConfirmRefused: 0,
    };
    const api: ApiClient = apiClient(platform.apis[0]!.baseUrl);
    const password = 'Team-drill-password-1';
    const owner = await signUp(api, `owner-${id}@team.drill.test`, password);
    const member = await signUp(api, `member-${id}@team.drill.test`, password);
    // Arranged in SQL (the invitation flow is the other half of the team drill): the member joins the owner's
    // organization and works in it.
    await platform.sql(
      `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt")
       VALUES (gen_random_uuid()::text, $1, $2, 'member', now())`,
      [owner.organizationId, member.userId],
    );
    const active = await api.request('/api/auth/organization/set-active', {
      method: 'POST',
      headers: { cookie: member.cookie },
      body: { organizationId: owner.organizationId },
    });
    if (active.status !== 200)
      await platform.sql('UPDATE "session" SET "activeOrganizationId" = $1 WHERE "userId" = $2', [
        owner.organizationId,
        member.userId,
      ]);

    const created = must(
      await api.request('/api/projects', {
        method: 'POST',
        headers: { cookie: owner.cookie },
        body: { url: `${site.origin}/` },
      }),
      200,
      'the owner creates the project',
    );
    const projectId = created.project.id as string;
    const gql = async (who: Account, query: string, variables: Record<string, unknown>) =>
      (await api.gql(query, { p: projectId, ...variables }, { cookie: who.cookie })).json;
    const update = (who: Account, input: Record<string, unknown>) =>
      gql(who, 'mutation($p: ID!, $i: UpdateProjectInput!) { updateProject(id: $p, input: $i) { id } }', {
        i: input,
      });
    const baseline = { url: `${site.origin}/`, settings: { crawlSubdomains: false, excludePatterns: ['/private/**'] } };
    const audit = async (who: Account) => {
      const started = must(
        await api.request(`/api/projects/${projectId}/audit`, { method: 'POST', headers: { cookie: who.cookie } }),
        200,
        'starting an audit',
      );
      const { audit: done } = await waitForAudit(api, who.cookie, projectId, started.auditId as string, 180_000);
      return done as { status: string; error: string | null } | null;
    };
    const canaryRequests = (attack: Attack, from: { host: number; address: number; port: number; site: number }) => {
      switch (attack) {
        case 'host':
          return canaryHost.requests.slice(from.host);
        case 'address':
          return canaryAddress?.requests.slice(from.address) ?? [];
        case 'port':
          return canaryPort.requests.slice(from.port);
        case 'subdomains':
          return site.requests
            .slice(from.site)
            .filter((r) => String(r.headers.host).split(':')[0] === subHost)
            .map((r) => ({ ...r, host: subHost, body: '' }));
        case 'exclude':
          return site.requests
            .slice(from.site)
            .filter((r) => r.path.startsWith('/private'))
            .map((r) => ({ ...r, host: siteHost, body: '' }));
      }
    };
    const attackInput = (attack: Attack): Record<string, unknown> => {
      switch (attack) {
        case 'host':
          return { url: `${canaryHost.origin}/` };
        case 'address':
          return { url: `${canaryAddress!.origin}/` };
        case 'port':
          return { url: `${canaryPort.origin}/` };
        case 'subdomains':
          return { settings: { crawlSubdomains: true } };
        case 'exclude':
          return { settings: { excludePatterns: null } };
      }
    };

    const must0 = (res: any, what: string) => expect(!res?.errors, `${what}: ${JSON.stringify(res?.errors)}`);
    must0(await update(owner, baseline), 'the owner sets the baseline scope');
    const attacks = (quick ? QUICK_ATTACKS : ATTACKS).filter((a) => a !== 'address' || canaryAddress);
    if (!canaryAddress) log('127.0.0.2 cannot be bound here: the other-address attack is left out');

    for (const kind of KINDS) {
      figures.loginKinds++;
      const auth: MemberAuth =
        kind === 'BASIC'
          ? { kind, username: SECRET.username, password: SECRET.password }
          : kind === 'BEARER'
            ? { kind, token: SECRET.token }
            : kind === 'COOKIE'
              ? { kind, name: 'drill_session', value: SECRET.cookie }
              : kind === 'HEADER'
                ? { kind, name: 'x-drill-token', value: SECRET.header }
                : { kind, username: SECRET.username, password: SECRET.password };
      const input =
        kind === 'FORM'
          ? formLoginFor(site, SECRET.username, SECRET.password)
          : kind === 'BASIC'
            ? { kind, username: SECRET.username, password: SECRET.password }
            : kind === 'BEARER'
              ? { kind, token: SECRET.token }
              : kind === 'COOKIE'
                ? { kind, cookies: `drill_session=${SECRET.cookie}` }
                : { kind, headerName: 'X-Drill-Token', headerValue: SECRET.header };
      site.setAuth(auth);
      must0(
        await gql(owner, 'mutation($p: ID!, $i: CrawlLoginInput!) { setCrawlLogin(projectId: $p, input: $i) { id } }', {
          i: input,
        }),
        `the owner sets a ${kind} login`,
      );

      // Control: the owner's audit reaches the site signed in.
      let siteFrom = site.requests.length;
      const control = await audit(owner);
      const signedIn = site.requests
        .slice(siteFrom)
        .filter((r) => String(r.headers.host).split(':')[0] === siteHost && r.path.startsWith('/members/'))
        .filter((r) => credentialsOf({ ...r, host: siteHost, body: '' }).length > 0).length;
      figures.controlCredentialedRequestsAtSite += signedIn;
      const spelled = site.requests.slice(siteFrom).filter((r) => OTHER_SPELLINGS.includes(r.path.split('?')[0]));
      const spelledLeaks = spelled.filter((r) => credentialsOf({ ...r, host: siteHost, body: '' }).length > 0);
      figures.excludedSpellingsRequested += spelled.length;
      figures.excludedSpellingsCredentials += spelledLeaks.length;
      expect(
        spelled.length === 0,
        `${kind}: the control audit requested another spelling of the excluded /private/** ` +
          `(${spelled.map((r) => r.path).join(', ')}; ${spelledLeaks.length} with the credential)`,
      );
      expect(control?.status === 'COMPLETED', `${kind}: the owner's control audit ended ${control?.status}`);
      expect(signedIn > 0, `${kind}: the owner's control audit sent no credential to the site`);

      for (const attack of attacks) {
        const from = {
          host: canaryHost.requests.length,
          address: canaryAddress?.requests.length ?? 0,
          port: canaryPort.requests.length,
          site: site.requests.length,
        };
        const changed = await update(member, attackInput(attack));
        if (!expect(!changed?.errors, `${kind}/${attack}: the member's change was refused: ${JSON.stringify(changed)}`))
          continue;
        const result = await audit(member);
        figures.attackAudits++;
        const seen = canaryRequests(attack, from);
        const leaked = seen.flatMap((r) => credentialsOf(r).map((c) => `${c} ${r.method} ${r.host}${r.path}`));
        figures.attackRequestsAtCanaries += seen.length;
        figures.credentialsReceivedByCanaries += leaked.length;
        expect(leaked.length === 0, `${kind}/${attack}: the canary received ${leaked.length} credentials: ${leaked}`);
        const suspended = result?.status === 'FAILED' && /crawl login is suspended/.test(result.error ?? '');
        if (suspended) figures.attackAuditsFailedSuspended++;
        expect(suspended, `${kind}/${attack}: the audit ended ${result?.status} (${result?.error ?? 'no error'})`);
        log(`${kind}/${attack}: ${seen.length} requests at the canary, ${leaked.length} credentials`);
        must0(await update(owner, baseline), 'the owner restores the project');
      }

      if (kind === 'BEARER') {
        // A member cannot confirm a widened login; the owner can, and then the canary does see it (the control).
        must0(await update(member, { settings: { crawlSubdomains: true } }), 'the member turns subdomains on');
        const refused = await gql(member, 'mutation($p: ID!) { confirmCrawlLogin(projectId: $p) { id } }', {});
        if (refused?.errors?.[0]?.extensions?.code === 'FORBIDDEN') figures.memberConfirmRefused++;
        expect(
          figures.memberConfirmRefused === 1,
          `a member's confirmation was not refused: ${JSON.stringify(refused)}`,
        );
        if (!quick) {
          must0(
            await gql(owner, 'mutation($p: ID!) { confirmCrawlLogin(projectId: $p) { id } }', {}),
            'the owner confirms the login for the subdomains',
          );
          siteFrom = site.requests.length;
          const confirmed = await audit(member);
          const sub = canaryRequests('subdomains', { host: 0, address: 0, port: 0, site: siteFrom });
          figures.controlCredentialsAfterOwnerConfirmed = sub.filter((r) => credentialsOf(r).length > 0).length;
          expect(
            confirmed?.status === 'COMPLETED',
            `the audit after the owner's confirmation ended ${confirmed?.status}`,
          );
          expect(
            figures.controlCredentialsAfterOwnerConfirmed > 0,
            'after the owner confirmed subdomains, the subdomain canary saw no credential: the canary counts nothing',
          );
        }
        must0(await update(owner, baseline), 'the owner restores the project');
        // Restored to the baseline, the login (bound to subdomains now, if confirmed) is set again for it.
        must0(
          await gql(
            owner,
            'mutation($p: ID!, $i: CrawlLoginInput!) { setCrawlLogin(projectId: $p, input: $i) { id } }',
            {
              i: input,
            },
          ),
          'the owner sets the login again',
        );
      }
    }
    return { figures, failures };
  }

  return {
    env,
    run,
    close: async () => {
      await Promise.allSettled([site.close(), canaryHost.close(), canaryPort.close(), canaryAddress?.close()]);
    },
  };
}
