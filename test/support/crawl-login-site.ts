import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a login fixture host received, with its headers (what the credential tests assert on). */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export type MemberAuth =
  | { kind: 'FORM'; username: string; password: string }
  | { kind: 'BASIC'; username: string; password: string }
  | { kind: 'BEARER'; token: string }
  | { kind: 'COOKIE'; name: string; value: string }
  | { kind: 'HEADER'; name: string; value: string };

export interface LoginHost {
  host: string;
  port: number;
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="description" content="${title}: a page of the login fixture site, long enough to be a description.">` +
  `</head><body><h1>${title}</h1><p>${'Member content for the crawl. '.repeat(12)}</p>${body}</body></html>`;

/**
 * A client-rendered member page (as React or Vue apps are): the served title is empty; its script fetches the member's
 * profile from the member API (signed-in requests only; else a redirect to the login page, whose HTML is no JSON) and
 * sets the title from it. It also calls another host, a member API URL that redirects there, and a logout URL.
 */
const memberApp = (other: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title></title></head><body><div id="root"></div>
<script>
fetch('/members/api/profile.json').then((r) => r.json()).then((profile) => {
  document.title = 'Member app of ' + profile.name;
  const h1 = document.createElement('h1');
  h1.textContent = document.title;
  document.getElementById('root').appendChild(h1);
}).catch(() => {});
fetch('${other}/beacon', { mode: 'no-cors' }).catch(() => {});
fetch('/members/api/partner').catch(() => {});
fetch('/account/logout?from=app').catch(() => {});
</script></body></html>`;

async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoginHost> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    host,
    port,
    origin: `http://${host}:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function cookiesOf(req: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return jar;
}

/** Another host: a page, an image and a landing page a redirect leads to. It records what it receives. */
export function startOtherHost(host: string): Promise<LoginHost> {
  return listen(host, (req, res) => {
    if (req.url?.startsWith('/img.png')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' }).end('\x89PNG');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html('Other host', '<p>elsewhere</p>'));
  });
}

/**
 * A member site: public home, a login form (CSRF token in a hidden input, bound to a pre-login cookie), a member area
 * that answers only a signed-in request (else a redirect to /login), a logout that ends the session it is sent, and
 * links, an image and a redirect to `other`. `auth` says what signs a request in; it can change between audits.
 */
export async function startMemberSite(host: string, other: () => string) {
  const sessions = new Set<string>();
  let auth: MemberAuth = { kind: 'FORM', username: 'crawler', password: 'pw' };
  let logoutsWithSession = 0;
  /** More links on the home page (a test adds a subdomain's, say). */
  const homeLinks: string[] = [];
  const signedIn = (req: IncomingMessage): boolean => {
    const cookies = cookiesOf(req);
    switch (auth.kind) {
      case 'FORM':
        return sessions.has(cookies.get('sid') ?? '');
      case 'BASIC':
        return (
          req.headers.authorization === `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`
        );
      case 'BEARER':
        return req.headers.authorization === `Bearer ${auth.token}`;
      case 'COOKIE':
        return cookies.get(auth.name) === auth.value;
      case 'HEADER':
        return req.headers[auth.name.toLowerCase()] === auth.value;
    }
  };
  const loginForm = (token: string, error = '') =>
    html(
      'Sign in',
      `${error}<form method="post" action="/login"><input type="hidden" name="csrf" value="${token}">` +
        '<label>User <input name="user"></label><label>Password <input type="password" name="pass"></label>' +
        '<button type="submit" name="go" value="1">Sign in</button></form>',
    );
  const site = await listen(host, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: string, headers: Record<string, string | string[]> = {}) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    const redirect = (location: string, headers: Record<string, string | string[]> = {}) =>
      res.writeHead(302, { location, ...headers }).end();
    switch (url.pathname) {
      case '/robots.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      case '/':
        return send(
          200,
          html(
            'Home',
            '<a href="/members/">Members</a> <a href="/login">Sign in</a> <a href="/account/logout">Log out</a> ' +
              `<a href="${other()}/page">Other page</a> <a href="/go-out">Out</a> ` +
              `<img src="${other()}/img.png" alt="x">` +
              homeLinks.map((href) => ` <a href="${href}">More</a>`).join(''),
          ),
        );
      case '/go-out':
        return redirect(`${other()}/landing`);
      case '/login': {
        if (req.method === 'POST') {
          let body = '';
          req.on('data', (c: Buffer) => (body += c.toString()));
          req.on('end', () => {
            const form = new URLSearchParams(body);
            const pre = cookiesOf(req).get('pre');
            const ok =
              auth.kind === 'FORM' &&
              pre !== undefined &&
              form.get('csrf') === pre &&
              form.get('user') === auth.username &&
              form.get('pass') === auth.password;
            if (!ok) return send(200, loginForm(pre ?? 'none', '<p>Wrong username or password.</p>'));
            const sid = randomBytes(12).toString('hex');
            sessions.add(sid);
            redirect('/members/', { 'set-cookie': `sid=${sid}; Path=/; HttpOnly` });
          });
          return;
        }
        const token = randomBytes(8).toString('hex');
        return send(200, loginForm(token), { 'set-cookie': `pre=${token}; Path=/; HttpOnly` });
      }
      case '/account/logout': {
        const sid = cookiesOf(req).get('sid');
        if (sid && sessions.delete(sid)) logoutsWithSession++;
        if (signedIn(req)) logoutsWithSession++;
        return redirect('/', { 'set-cookie': 'sid=; Path=/; Max-Age=0' });
      }
    }
    if (url.pathname.startsWith('/members/')) {
      if (!signedIn(req)) return redirect('/login');
      if (url.pathname === '/members/app') return send(200, memberApp(other()));
      if (url.pathname === '/members/api/profile.json')
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'Ada' }));
      if (url.pathname === '/members/api/partner') return redirect(`${other()}/partner-data`);
      const page = url.pathname.slice('/members/'.length) || 'index';
      return send(
        200,
        html(
          `Member ${page}`,
          '<a href="/members/a">A</a> <a href="/members/b">B</a> <a href="/members/app">App</a> ' +
            '<a href="/account/logout">Log out</a> ' +
            `<a href="${other()}/member-link">Partner</a> <img src="${other()}/img.png?m" alt="y">`,
        ),
      );
    }
    send(404, html('Not found', ''));
  });
  return {
    ...site,
    homeLinks,
    setAuth(next: MemberAuth) {
      auth = next;
      sessions.clear();
    },
    get logoutsWithSession() {
      return logoutsWithSession;
    },
  };
}

/** Has the member site accept a form login with these credentials; returns the login input that passes it. */
export function formLoginFor(
  site: { origin: string; setAuth(next: MemberAuth): void },
  username: string,
  password: string,
) {
  site.setAuth({ kind: 'FORM', username, password });
  return {
    kind: 'FORM',
    loginUrl: `${site.origin}/login`,
    usernameField: 'user',
    passwordField: 'pass',
    username,
    password,
  };
}

/** The credential headers a request carried (what must never reach another host). */
export const credentialHeaders = (r: SeenRequest) =>
  ['cookie', 'authorization', 'x-preview-token'].filter((h) => r.headers[h] !== undefined);

/**
 * The member site and another host it links to, each on a name of its own that resolves to 127.0.0.1, with the
 * SAFE_HTTP_ALLOW and SAFE_HTTP_RESOLVE settings that let a crawl reach both, and a subdomain of the member site's
 * name (`canary.members-….test`, served by the member site's server: its requests carry that Host header).
 */
export async function startLoginSites(id: string) {
  const memberHost = `members-${id}.test`;
  const otherHost = `elsewhere-${id}.test`;
  const subdomainHost = `canary.${memberHost}`;
  const other = await startOtherHost(otherHost);
  const site = await startMemberSite(memberHost, () => other.origin);
  const env = {
    SAFE_HTTP_ALLOW: `${memberHost},${otherHost},${subdomainHost}`,
    SAFE_HTTP_RESOLVE: `${memberHost}=127.0.0.1,${otherHost}=127.0.0.1,${subdomainHost}=127.0.0.1`,
  };
  const subdomain = { host: subdomainHost, origin: `http://${subdomainHost}:${site.port}` };
  return { site, other, subdomain, env };
}

/** The requests a host name received at the member site's server (its subdomain's, say). */
export const requestsFor = (site: { requests: SeenRequest[] }, host: string): SeenRequest[] =>
  site.requests.filter((r) => String(r.headers.host ?? '').split(':')[0] === host);
