/**
 * SSRF: vectors (numeric and short IPv4 forms, IPv6 and IPv4-mapped, unspecified and metadata addresses,
 * userinfo tricks, trailing dots, percent-encoding, non-HTTP schemes, redirects and DNS answers to refused
 * addresses) through every entry point: the four free tools, a project URL (creation and its audit), a
 * competitor (creation and its homepage profile), a webhook endpoint (creation, a change of its URL, and a
 * delivery by the alert worker) and inside an audited site (links, images, robots.txt Sitemap: lines,
 * sitemap-index children, redirects). The platform allows only the fixture host `site.drill.test` (pinned to
 * 127.0.0.1); canary listeners on loopback count every connection that gets through. Expected: 0 connections; a
 * clear 400 for direct inputs; a failed audit (or a refusal at creation) for a refused project URL; a webhook
 * refused when saved or its delivery logged as failed with the reason (a redirect is never followed by a
 * delivery); in-site refusals reported with the URL and a reason; no message saying what a host name resolved to
 * (the address, or its class).
 * Names are pinned with SAFE_HTTP_RESOLVE so that no DNS query leaves the machine.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { startFixtureSite, type FixtureSiteOptions, type RunningSite } from '../fixtures/sites/index.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';
import { apiClient, keepLogs, must, sessionSecrets, signUp, sleep, startCanary, type Canary } from './drill-http.js';

type VectorKind = 'literal' | 'dns' | 'redirect';
interface Vector {
  name: string;
  kind: VectorKind;
  url: string;
  /** Not http(s): in a site it is not a fetchable link, so no report is expected. */
  scheme?: boolean;
}

const ALLOWED = 'site.drill.test';
/** Names the platform resolves through SAFE_HTTP_RESOLVE (like a DNS answer), all to refused addresses. */
const PINS: Record<string, string> = {
  [ALLOWED]: '127.0.0.1',
  'canary.drill.test': '127.0.0.1',
  'canary6.drill.test': '::1',
  'mapped.drill.test': '::ffff:127.0.0.1',
  'canary.localhost': '127.0.0.1',
  'localhost.': '127.0.0.1',
  'metadata.google.internal': '169.254.169.254',
};

function vectors(p: number, redirectSite: (target: string, status?: number) => string): Vector[] {
  const lit = (name: string, url: string, scheme = false): Vector => ({ name, kind: 'literal', url, scheme });
  const dns = (name: string, url: string): Vector => ({ name, kind: 'dns', url });
  const red = (name: string, target: string, status = 302): Vector => ({
    name,
    kind: 'redirect',
    url: redirectSite(target, status),
  });
  return [
    lit('decimal IPv4', `http://2130706433:${p}/`),
    lit('octal IPv4', `http://0177.0.0.1:${p}/`),
    lit('hex IPv4 (short)', `http://0x7f.1:${p}/`),
    lit('hex IPv4 (whole)', `http://0x7f000001:${p}/`),
    lit('short IPv4', `http://127.1:${p}/`),
    lit('another loopback', `http://127.0.0.2:${p}/`),
    lit('IPv6 loopback', `http://[::1]:${p}/`),
    lit('IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:${p}/`),
    lit('IPv4-mapped IPv6 (hex)', `http://[::ffff:7f00:1]:${p}/`),
    lit('IPv4-mapped IPv6 (long)', `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`),
    lit('0.0.0.0', `http://0.0.0.0:${p}/`),
    lit('IPv6 unspecified', `http://[::]:${p}/`),
    lit('bare 0', `http://0:${p}/`),
    lit('AWS metadata', 'http://169.254.169.254/latest/meta-data/'),
    lit('AWS metadata IPv6', 'http://[fd00:ec2::254]/latest/meta-data/'),
    lit('metadata as mapped IPv6', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/'),
    lit('Alibaba metadata (CGNAT)', 'http://100.100.100.200/latest/meta-data/'),
    lit('private 10/8', 'http://10.0.0.1/'),
    lit('trailing dot on an IP', `http://127.0.0.1.:${p}/`),
    lit('percent-encoded IP', `http://%31%32%37.0.0.1:${p}/`),
    lit('userinfo: allowed name @ loopback', `http://${ALLOWED}@127.0.0.1:${p}/`),
    lit('userinfo: loopback @ other host', 'http://127.0.0.1@evil.invalid/'),
    lit('userinfo on the allowed site', redirectSite('', 0).replace('http://', 'http://user:pw@')),
    lit('https to loopback', `https://127.0.0.1:${p}/`),
    lit('file:', 'file:///etc/passwd', true),
    lit('gopher:', `gopher://127.0.0.1:${p}/_GET%20/`, true),
    lit('ftp:', `ftp://127.0.0.1:${p}/`, true),
    lit('data:', 'data:text/html,<title>x</title>', true),
    lit('javascript:', 'javascript:alert(1)', true),
    dns('localhost', `http://localhost:${p}/`),
    dns('LOCALHOST upper case', `HTTP://LOCALHOST:${p}/`),
    dns('localhost. (trailing dot)', `http://localhost.:${p}/`),
    dns('*.localhost', `http://canary.localhost:${p}/`),
    dns('name → 127.0.0.1', `http://canary.drill.test:${p}/`),
    dns('name → ::1', `http://canary6.drill.test:${p}/`),
    dns('name → ::ffff:127.0.0.1', `http://mapped.drill.test:${p}/`),
    dns('percent-encoded name', `http://canary%2Edrill.test:${p}/`),
    dns('metadata.google.internal', 'http://metadata.google.internal/computeMetadata/v1/'),
    red('redirect → loopback', `http://127.0.0.1:${p}/`),
    red('redirect 307 → mapped IPv6', `http://[::ffff:127.0.0.1]:${p}/`, 307),
    red('redirect → metadata', 'http://169.254.169.254/latest/meta-data/', 301),
    red('redirect → name → loopback', `http://canary.drill.test:${p}/`),
    red('redirect → scheme-relative loopback', `//127.0.0.1:${p}/`, 303),
    red('redirect → file:', 'file:///etc/passwd'),
    red('redirect → redirect → loopback', redirectSite(`http://127.0.0.2:${p}/`, 308), 302),
  ];
}

/** A message that tells what a host name resolved to (its class): our network's answer, not the user's input. */
const REVEALS_RESOLUTION = new RegExp(
  'resolves to (a|an) (loopback|private|link-local|carrier-grade|multicast|broadcast|reserved|unspecified|' +
    'unique-local)',
  'i',
);

/** The address a vector's host name is pinned to (what its DNS answer would be), when it names a host. */
function pinnedAddress(v: Vector): string | null {
  if (v.kind !== 'dns') return null;
  try {
    return PINS[new URL(v.url).hostname.toLowerCase()] ?? null;
  } catch {
    return null;
  }
}

/** Connection counts of every canary. */
const connections = (canaries: Canary[]) => canaries.reduce((n, c) => n + c.hits.length, 0);

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const REFUSAL = new RegExp(
  String.raw`private|localhost|http and https|loopback|reserved|link-local|` +
    String.raw`unspecified|carrier|unique-local|refus|block|not allowed|credentials|` +
    String.raw`http or https|http\(s\)|must use|not a valid|valid URL|host name|` +
    String.raw`resolve`,
  'i',
);

interface Row {
  entry: string;
  vector: string;
  ok: boolean;
  outcome: string;
}

async function auditStatus(
  platform: Platform,
  projectId: string,
  timeoutMs: number,
): Promise<{ status: string; error: string | null } | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await platform.sql<{ status: string; error: string | null; final: boolean }>(
      'SELECT status, error, external_links_final AS final FROM audit WHERE project_id = $1 ORDER BY created_at DESC ' +
        'LIMIT 1',
      [projectId],
    );
    // Final: a completed audit may still be folding in its external verdicts.
    if (row && ['COMPLETED', 'FAILED', 'CANCELLED'].includes(row.status) && row.final) return row;
    if (Date.now() > deadline) return row ?? null;
    await sleep(300);
  }
}

export const drill: Drill = {
  description:
    'SSRF: ≥ 25 vectors through the tools, projects, competitors, webhooks and an audited site → 0 connections',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const port = await freeLoopbackPort();
    const canaries = (
      await Promise.all([
        startCanary('127.0.0.1', port),
        startCanary('127.0.0.2', port),
        startCanary('::1', port),
        // Where a competitor's homepage (https://host/, then http://host/) would be fetched.
        startCanary('127.0.0.1', 80),
        startCanary('127.0.0.1', 443),
        startCanary('::1', 80),
        startCanary('::1', 443),
      ])
    ).filter((c): c is Canary => c !== null);
    log(`canaries on ${canaries.map((c) => `${c.address}:${c.port}`).join(', ')}`);

    // Redirect hops: one tiny site per target on the allowed host (every path redirects, /robots.txt too).
    const hops: RunningSite[] = [];
    const hopFor = new Map<string, string>();
    const hop = async (target: string, status: number): Promise<string> => {
      const options: FixtureSiteOptions = { host: ALLOWED };
      const site = await startFixtureSite(options);
      // The fallback is read per request: set after listening, when the site's own URL is known.
      options.fallback = status
        ? { status, headers: { location: target }, body: '' }
        : { body: '<title>allowed</title>' };
      hops.push(site);
      hopFor.set(`${status} ${target}`, site.url('/'));
      return site.url('/');
    };
    const redirectSite = (target: string, status = 302): string => {
      const url = hopFor.get(`${status} ${target}`);
      if (!url) throw new Error(`redirect hop "${status} ${target}" not prepared`);
      return url;
    };
    await hop(`http://127.0.0.1:${port}/`, 302);
    await hop(`http://[::ffff:127.0.0.1]:${port}/`, 307);
    await hop('http://169.254.169.254/latest/meta-data/', 301);
    await hop(`http://canary.drill.test:${port}/`, 302);
    await hop(`//127.0.0.1:${port}/`, 303);
    await hop('file:///etc/passwd', 302);
    await hop(await hop(`http://127.0.0.2:${port}/`, 308), 302);
    await hop('', 0); // a plain page on the allowed host (for the userinfo vector)

    let all = vectors(port, redirectSite);
    if (quick) {
      // One of each family.
      const pick = [
        'decimal IPv4',
        'octal IPv4',
        'short IPv4',
        'IPv4-mapped IPv6',
        '0.0.0.0',
        'AWS metadata',
        'userinfo: allowed name @ loopback',
        'userinfo on the allowed site',
        'trailing dot on an IP',
        'percent-encoded IP',
        'file:',
        'gopher:',
        'localhost. (trailing dot)',
        'name → 127.0.0.1',
        'metadata.google.internal',
        'redirect → loopback',
        'redirect → name → loopback',
        'redirect → redirect → loopback',
      ];
      all = all.filter((v) => pick.includes(v.name));
    }
    log(`${all.length} vectors`);

    const site = await startFixtureSite({ host: ALLOWED });
    const httpVectors = all.filter((v) => !v.scheme);
    const sitemapIndex =
      `<?xml version="1.0" encoding="UTF-8"?><sitemapindex ` +
      `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${httpVectors
        .map((v) => `<sitemap><loc>${escapeXml(v.url)}</loc></sitemap>`)
        .join('')}</sitemapindex>`;
    const sitemap =
      `<?xml version="1.0" encoding="UTF-8"?><urlset ` +
      `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/')}</loc></url>${all
        .map((v) => `<url><loc>${escapeXml(v.url)}</loc></url>`)
        .join('')}</urlset>`;
    site.serve({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body:
          `User-agent: *\nAllow: /\n\nSitemap: ${site.url('/sitemap.xml')}\n` +
          `Sitemap: ${site.url('/sitemap-index.xml')}\n` +
          `${httpVectors.map((v) => `Sitemap: ${v.url}`).join('\n')}\n`,
      },
      '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: sitemap },
      '/sitemap-index.xml': { headers: { 'content-type': 'application/xml' }, body: sitemapIndex },
      '/': {
        body:
          `<!doctype html><html lang="en"><head><title>SSRF drill home</title><meta name="description" ` +
          `content="links everywhere"></head><body><h1>Vectors</h1>${all
            .map((_, i) => `<p><a href="/v/${i}">vector ${i}</a></p>`)
            .join('')}</body></html>`,
      },
      // One page per vector: a link and an image each, so that no per-page sample or budget hides one.
      ...Object.fromEntries(
        all.map((v, i) => [
          `/v/${i}`,
          {
            body:
              `<!doctype html><html lang="en"><head><title>Vector ${i}</title></head>` +
              `<body><h1>${escapeXml(v.name)}</h1>` +
              `<p><a href="${escapeXml(v.url)}">the link</a> ` +
              `<img src="${escapeXml(v.url)}" alt="the image" width="1" height="1"></p>` +
              `<a href="/">home</a></body></html>`,
          },
        ]),
      ),
    });

    const hosts = Object.entries(PINS).map(([h, a]) => `${h}=${a}`);
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: {
        DEFAULT_PLAN: 'ENTERPRISE',
        SAFE_HTTP_ALLOW: ALLOWED,
        SAFE_HTTP_RESOLVE: hosts.join(','),
        ANONYMOUS_RATE_PER_MINUTE: '100000',
        WORKER_CONCURRENCY: '4',
        PLAN_QUOTAS: JSON.stringify({ ENTERPRISE: { competitorsPerProject: 100, projects: 200 } }),
      },
    });
    const rows: Row[] = [];
    const figures: Record<string, unknown> = {};
    const credentials: { what: string; value: string }[] = [];
    try {
      const api = apiClient(platform.apis[0].baseUrl);
      const user = await signUp(api, `ssrf-${Date.now()}@drill.test`, `pw-${randomBytes(9).toString('hex')}`);
      credentials.push({ what: 'password', value: user.password }, ...sessionSecrets(user.cookie, 'session'));
      const auth = { cookie: user.cookie };
      const before = connections(canaries);

      // 1. The four free tools: a clear 400 each.
      for (const tool of ['meta-tags', 'robots', 'headers', 'sitemap']) {
        await Promise.all(
          all.map(async (v) => {
            const res = await api.request(`/api/tools/${tool}`, { method: 'POST', body: { url: v.url } });
            const ok = res.status === 400 && res.json?.code === 'BAD_USER_INPUT' && REFUSAL.test(res.json?.error ?? '');
            rows.push({
              entry: `tool ${tool}`,
              vector: v.name,
              ok,
              outcome: `${res.status} ${res.json?.error ?? res.text.slice(0, 120)}`,
            });
          }),
        );
      }
      log(
        `tools: ${rows.filter((r) => r.ok).length}/${rows.length} refused with a clear 400; connections ` +
          `so far ${connections(canaries) - before}`,
      );

      // 2. Project URLs: refused at creation (literal addresses), or the audit fails with the reason.
      const projectRows: Promise<void>[] = [];
      for (const [i, v] of all.entries()) {
        // A query string of its own: several vectors normalise to the same URL, and a duplicate is refused as such.
        const url = v.scheme ? v.url : `${v.url}${v.url.includes('?') ? '&' : '?'}vector=${i}`;
        const res = await api.request('/api/projects', {
          method: 'POST',
          headers: auth,
          body: { url, name: `ssrf ${v.name}` },
        });
        if (res.status === 400) {
          rows.push({
            entry: 'project creation',
            vector: v.name,
            ok: REFUSAL.test(res.json?.error ?? ''),
            outcome: `400 ${res.json?.error}`,
          });
          continue;
        }
        if (res.status !== 200) {
          rows.push({
            entry: 'project creation',
            vector: v.name,
            ok: false,
            outcome: `${res.status} ${res.text.slice(0, 200)}`,
          });
          continue;
        }
        const projectId = res.json.project.id as string;
        // Literal addresses, schemes and credentials are knowable at creation: they should be refused there.
        rows.push({
          entry: 'project creation',
          vector: v.name,
          ok: v.kind !== 'literal',
          outcome: `200 accepted as ${res.json.project.url}`,
        });
        const started = await api.request(`/api/projects/${projectId}/audit`, { method: 'POST', headers: auth });
        if (started.status !== 200) {
          rows.push({
            entry: 'project audit',
            vector: v.name,
            ok: false,
            outcome: `start ${started.status} ${started.text.slice(0, 200)}`,
          });
          continue;
        }
        projectRows.push(
          auditStatus(platform, projectId, 60_000).then((audit) => {
            const ok = audit?.status === 'FAILED' && REFUSAL.test(audit.error ?? '');
            rows.push({
              entry: 'project audit',
              vector: v.name,
              ok,
              outcome: `${audit?.status} ${audit?.error ?? '(no error)'}`,
            });
          }),
        );
      }
      await Promise.all(projectRows);
      log(`projects done; connections so far ${connections(canaries) - before}`);

      // 3. Competitors: refused at creation, or the homepage profile records the refusal.
      // The competitors' project is not on the fixture host (a competitor cannot be the project's own domain).
      const owner = must(
        await api.request('/api/projects', {
          method: 'POST',
          headers: auth,
          body: { url: 'http://competitors.drill.invalid/', name: 'ssrf competitors' },
        }),
        200,
        'competitor project',
      ).project;
      const accepted: { v: Vector; id: string }[] = [];
      for (const v of all) {
        const res = await api.request(`/api/projects/${owner.id}/competitors`, {
          method: 'POST',
          headers: auth,
          body: { domain: v.url },
        });
        if (res.status === 400) {
          // "already tracked": the vector normalised to a domain an earlier vector was accepted as (and tested with).
          rows.push({
            entry: 'competitor creation',
            vector: v.name,
            ok: /domain must be|already tracked/.test(res.json?.error ?? '') || REFUSAL.test(res.json?.error ?? ''),
            outcome: `400 ${res.json?.error}`,
          });
        } else if (res.status === 200) {
          rows.push({
            entry: 'competitor creation',
            vector: v.name,
            ok: v.kind !== 'literal',
            outcome: `200 accepted as ${res.json.competitor.domain}`,
          });
          accepted.push({ v, id: res.json.competitor.id });
        } else {
          rows.push({
            entry: 'competitor creation',
            vector: v.name,
            ok: false,
            outcome: `${res.status} ${res.text.slice(0, 200)}`,
          });
        }
      }
      if (accepted.length) {
        const deadline = Date.now() + 60_000;
        let profiles: {
          id: string;
          domain: string;
          homepage: { error: string | null; status: number | null } | null;
        }[] = [];
        while (Date.now() < deadline) {
          const res = await api.gql(
            'query($p: ID!) { competitors(projectId: $p) { id domain homepage { error status } } }',
            { p: owner.id },
            auth,
          );
          profiles = res.json?.data?.competitors ?? [];
          if (accepted.every((a) => profiles.find((p) => p.id === a.id)?.homepage)) break;
          await sleep(1000);
        }
        for (const { v, id } of accepted) {
          const homepage = profiles.find((p) => p.id === id)?.homepage;
          const ok = !!homepage && homepage.status === null && REFUSAL.test(homepage.error ?? '');
          rows.push({
            entry: 'competitor profile',
            vector: v.name,
            ok,
            outcome: homepage ? `status ${homepage.status}, ${homepage.error}` : 'no profile within 60 s',
          });
        }
      }
      log(`competitors done; connections so far ${connections(canaries) - before}`);

      // 4. Webhook endpoints: refused when saved (creation, or a change of an endpoint's URL), or the delivery of a
      // test event by the alert worker fails with the reason. A delivery never follows a redirect.
      Object.assign(figures, await webhookRows(api, auth, all, redirectSite('', 0), rows));
      log(`webhooks done; connections so far ${connections(canaries) - before}`);

      // 5. Inside an audited site: links, images, robots.txt Sitemap: lines, sitemap(-index) entries, redirects.
      const host = must(
        await api.request('/api/projects', {
          method: 'POST',
          headers: auth,
          body: { url: site.url('/'), name: 'ssrf site' },
        }),
        200,
        'site project',
      ).project;
      const started = must(
        await api.request(`/api/projects/${host.id}/audit`, { method: 'POST', headers: auth }),
        200,
        'site audit',
      );
      const audit = await auditStatus(platform, host.id, 120_000);
      expect(audit?.status === 'COMPLETED', `the audit of the fixture site ended ${audit?.status}: ${audit?.error}`);
      const pages = await api.gql(
        'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { uncheckedLinks { url reason } ' +
          'pages(first: 100) { nodes { url statusCode error } } } }',
        { p: host.id, a: started.auditId },
        auth,
      );
      const report = await api.request(`/api/projects/${host.id}/reports?auditId=${started.auditId}`, {
        headers: auth,
      });
      // A link our URL policy refuses (user info in it, say) is listed as not checked, with the reason, not broken.
      const records: string[] = [
        ...((pages.json?.data?.audit?.pages?.nodes ?? []) as object[]).map((n) => JSON.stringify(n)),
        ...((pages.json?.data?.audit?.uncheckedLinks ?? []) as object[]).map((n) => JSON.stringify(n)),
        ...((report.json?.reports?.[0]?.occurrences ?? []) as object[]).map((o) => JSON.stringify(o)),
      ];
      for (const v of httpVectors) {
        let href: string;
        try {
          href = new URL(v.url, site.url('/')).href;
        } catch {
          continue;
        }
        const mentions = records.filter(
          (r) => r.includes(JSON.stringify(href).slice(1, -1)) || r.includes(JSON.stringify(v.url).slice(1, -1)),
        );
        const withReason = mentions.filter((r) => REFUSAL.test(r));
        rows.push({
          entry: 'in-site link/image',
          vector: v.name,
          ok: withReason.length > 0,
          outcome: withReason.length
            ? `reported: ${withReason[0].slice(0, 160)}`
            : mentions.length
              ? `listed without a reason: ${mentions[0].slice(0, 160)}`
              : 'not reported',
        });
      }
      const siteRequests = site.requests.map((r) => r.path);
      expect(
        siteRequests.includes('/sitemap-index.xml'),
        'the crawler did not read the sitemap index (its children are vectors)',
      );
      log(`site audit ${audit?.status}; connections so far ${connections(canaries) - before}`);

      await sleep(1000); // a late connection (a retry, a lingering HEAD) still counts
      const made = connections(canaries) - before;
      expect(
        made === 0,
        `${made} connection(s) reached a ` +
          `canary: ${canaries.flatMap((c) => c.hits.map((h) => `${c.address}:${c.port} "${h.firstLine}"`)).join('; ')}`,
      );
      for (const row of rows.filter((r) => !r.ok)) expect(false, `${row.entry} × ${row.vector}: ${row.outcome}`);
      // The user typed the name: what it resolves to on our network (the address or its class) is not theirs to read.
      const revealing = rows.filter((r) => {
        if (REVEALS_RESOLUTION.test(r.outcome)) return true;
        const v = all.find((x) => x.name === r.vector);
        const address = v && pinnedAddress(v);
        return !!address && !r.entry.startsWith('in-site') && r.outcome.includes(address);
      });
      for (const row of revealing)
        expect(false, `${row.entry} × ${row.vector}: the answer tells what the host name resolves to: ${row.outcome}`);
      const byEntry: Record<string, { tried: number; held: number }> = {};
      for (const row of rows) {
        const e = (byEntry[row.entry] ??= { tried: 0, held: 0 });
        e.tried++;
        if (row.ok) e.held++;
      }
      Object.assign(figures, {
        vectors: all.length,
        canaries: canaries.map((c) => `${c.address}:${c.port}`),
        attempts: rows.length + httpVectors.length * 3, // in site: link, image, sitemap entry each
        byEntry,
        answersRevealingResolution: revealing.length,
        connectionsMade: made,
        hopRequests: hops.reduce((n, h) => n + h.requests.length, 0),
      });
      if (process.env.DRILL_VERBOSE)
        for (const row of rows) log(`${row.ok ? 'ok ' : 'BAD'} ${row.entry} × ${row.vector}: ${row.outcome}`);
    } finally {
      keepLogs('ssrf', platform.logs(), credentials);
      await platform.stop();
      await site.close();
      for (const h of hops) await h.close();
      for (const c of canaries) await c.close();
    }
    return result(figures);
  },
};

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const WEBHOOK_FIELDS = 'id url';
const PER_PROJECT = 10; // MAX_ENDPOINTS_PER_PROJECT

/**
 * Every vector as a webhook URL: created (a refusal is a row), then changed to on an allowed endpoint, and every
 * endpoint that was saved gets a test event whose delivery must fail with the reason or a 3xx left unfollowed.
 * A last test event to the allowed endpoint must be delivered: the alert worker is alive, so a failure means a refusal.
 */
async function webhookRows(
  api: ReturnType<typeof apiClient>,
  auth: { cookie: string },
  all: Vector[],
  allowedUrl: string,
  rows: Row[],
): Promise<Record<string, unknown>> {
  const gql = (query: string, variables: Record<string, unknown>) => api.gql(query, variables, auth);
  const newProject = async (n: number) =>
    must(
      await api.request('/api/projects', {
        method: 'POST',
        headers: auth,
        body: { url: `http://webhooks-${n}.drill.invalid/`, name: `ssrf webhooks ${n}` },
      }),
      200,
      'webhook project',
    ).project.id as string;
  const refusal = (res: { json?: any; text: string }) => {
    const error = res.json?.errors?.[0];
    const text = `${error?.message ?? ''} ${JSON.stringify(error?.extensions?.fields ?? '')}`;
    return { refused: error?.extensions?.code === 'BAD_USER_INPUT', text: error ? text : res.text.slice(0, 200) };
  };
  let delivered = 0;
  let deliveries = 0;

  /** Sends a test event and waits for its logged attempt. */
  const deliver = async (endpointId: string) => {
    const sent = await gql('mutation($e: ID!) { sendTestWebhook(endpointId: $e) { eventId } }', { e: endpointId });
    if (!sent.json?.data) return { outcome: `test not queued: ${sent.text.slice(0, 200)}`, node: null };
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const log = await gql(
        'query($e: ID!) { webhookDeliveries(endpointId: $e, first: 5) { nodes { succeeded statusCode error } } }',
        { e: endpointId },
      );
      const node = log.json?.data?.webhookDeliveries?.nodes?.[0] as
        { succeeded: boolean; statusCode: number | null; error: string | null } | undefined;
      if (node) {
        deliveries++;
        if (node.succeeded) delivered++;
        return {
          outcome: `delivery ${node.succeeded ? 'succeeded' : 'failed'} ${node.statusCode} ${node.error}`,
          node,
        };
      }
      await sleep(300);
    }
    return { outcome: 'no delivery logged within 30 s', node: null };
  };

  // Creation, in projects of at most ten endpoints each; each saved endpoint gets a test event.
  let projectId = await newProject(0);
  let inProject = 0;
  const saved: { v: Vector; id: string }[] = [];
  for (const [i, v] of all.entries()) {
    if (inProject === PER_PROJECT) {
      projectId = await newProject(i);
      inProject = 0;
    }
    const res = await gql(
      `mutation($p: ID!, $u: String!) { createWebhookEndpoint(projectId: $p, input: { url: $u }) ` +
        `{ endpoint { ${WEBHOOK_FIELDS} } } }`,
      { p: projectId, u: v.url },
    );
    const endpoint = res.json?.data?.createWebhookEndpoint?.endpoint;
    if (endpoint) {
      inProject++;
      saved.push({ v, id: endpoint.id });
      rows.push({
        entry: 'webhook creation',
        vector: v.name,
        ok: v.kind !== 'literal',
        outcome: `saved ${endpoint.url}`,
      });
      continue;
    }
    const { refused, text } = refusal(res);
    rows.push({ entry: 'webhook creation', vector: v.name, ok: refused && REFUSAL.test(text), outcome: text });
  }
  await Promise.all(
    saved.map(async ({ v, id }) => {
      const { outcome, node } = await deliver(id);
      const unfollowed =
        v.kind === 'redirect' && node?.statusCode != null && node.statusCode >= 300 && node.statusCode < 400;
      const ok =
        !!node && !node.succeeded && (unfollowed || (node.statusCode === null && REFUSAL.test(node.error ?? '')));
      rows.push({ entry: 'webhook delivery', vector: v.name, ok, outcome });
    }),
  );

  // A change of an allowed endpoint's URL: refused as a creation is.
  const allowedProject = await newProject(-1);
  const control = await gql(
    `mutation($p: ID!, $u: String!) { createWebhookEndpoint(projectId: $p, input: { url: $u }) ` +
      `{ endpoint { ${WEBHOOK_FIELDS} } } }`,
    { p: allowedProject, u: allowedUrl },
  );
  const controlId = must(control, 200, 'allowed webhook endpoint').data?.createWebhookEndpoint?.endpoint?.id as string;
  if (!controlId) throw new Error(`allowed webhook endpoint: ${control.text.slice(0, 300)}`);
  for (const v of all) {
    const res = await gql(
      `mutation($e: ID!, $u: String!) { updateWebhookEndpoint(id: $e, input: { url: $u }) { ${WEBHOOK_FIELDS} } }`,
      { e: controlId, u: v.url },
    );
    const changed = res.json?.data?.updateWebhookEndpoint;
    if (changed) {
      rows.push({
        entry: 'webhook URL change',
        vector: v.name,
        ok: v.kind !== 'literal',
        outcome: `saved ${changed.url}`,
      });
      continue;
    }
    const { refused, text } = refusal(res);
    rows.push({ entry: 'webhook URL change', vector: v.name, ok: refused && REFUSAL.test(text), outcome: text });
  }
  // Back to the allowed URL: its test event is delivered (the worker delivers; the refusals above were refusals).
  await gql('mutation($e: ID!, $u: String!) { updateWebhookEndpoint(id: $e, input: { url: $u }) { id } }', {
    e: controlId,
    u: allowedUrl,
  });
  const { outcome, node } = await deliver(controlId);
  rows.push({
    entry: 'webhook delivery (allowed control)',
    vector: 'allowed host',
    ok: node?.succeeded === true,
    outcome,
  });
  return { webhookEndpointsSaved: saved.length, webhookDeliveries: deliveries, webhookDelivered: delivered };
}
