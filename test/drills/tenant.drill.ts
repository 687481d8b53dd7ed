/**
 * Tenant matrix: organizations A and B each get a project on a local fixture site, a completed audit (with
 * issues), keywords, a competitor and API keys. Then, with A's credentials, every REST route of both
 * surfaces (read from the route tables, the streamed exports, reports and comparisons included, once per value of
 * an enumerated path parameter and per format) and every GraphQL Query/Mutation field, nested field and input
 * field that takes an ID (read from schema/schema.graphql) is called with B's ids → 404 NOT_FOUND, and no
 * response carries anything of B (ids, names, URLs, terms, domains). B's data is compared before and after.
 * A new route or ID-taking field is covered without editing this file; one whose id kind cannot be told
 * (from the path segment or the argument/field name) is reported as a failure, never skipped silently.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { v1Routes } from '../../facades/v1/routes.js';
import { apiRoutes } from '../../facades/api/routes.js';
import { reportRoutes } from '../../facades/api/report-routes.js';
import { toolRoutes } from '../../facades/api/tool-routes.js';
import { checkRoutes } from '../../facades/api/check-routes.js';
import { comparisonRoutes as v1ComparisonRoutes } from '../../facades/v1/comparison-routes.js';
import { comparisonRoutes as apiComparisonRoutes } from '../../facades/api/comparison-routes.js';
import { exportRoutes } from '../../facades/v1/export-routes.js';
import { startFixtureSite, type RunningSite } from '../fixtures/sites/index.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
import {
  apiClient,
  createApiKey,
  keepLogs,
  must,
  sessionSecrets,
  signUp,
  waitForAudit,
  type Account,
  type ApiClient,
  type HttpAnswer,
} from './drill-http.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));

/** The kinds of ids a tenant owns; a route or field needing another kind fails the drill until it is added here. */
type IdKind =
  | 'project'
  | 'audit'
  | 'issue'
  | 'job'
  | 'keyword'
  | 'competitor'
  | 'apiKey'
  | 'organization'
  | 'user'
  | 'member'
  | 'alertRule'
  | 'webhookEndpoint'
  | 'webhookDelivery'
  | 'wontFix'
  | 'segment'
  | 'extractor';
const ID_KINDS: IdKind[] = [
  'project',
  'audit',
  'issue',
  'job',
  'keyword',
  'competitor',
  'apiKey',
  'organization',
  'user',
  'member',
  'alertRule',
  'webhookEndpoint',
  'webhookDelivery',
  'wontFix',
  'segment',
  'extractor',
];
/** Names an id goes by besides its kind: a comparison's two audits, an alert's endpoint and delivery. */
const ID_ALIASES: Record<string, IdKind> = {
  base: 'audit',
  head: 'audit',
  endpoint: 'webhookEndpoint',
  delivery: 'webhookDelivery',
  webhookSecret: 'webhookEndpoint',
  customExtractor: 'extractor',
};
type TenantIds = Partial<Record<IdKind, string>>;

interface Tenant {
  label: 'A' | 'B';
  account: Account;
  key: string;
  site: RunningSite;
  ids: TenantIds;
  /** Strings that belong to this tenant only: any of them in A's answers is a leak. */
  markers: string[];
  /** Its credentials, for the secrets drill's search of the logs. */
  credentials: { what: string; value: string }[];
}

/** `projects` → project, `jobs` → job, `apiKeys` → apiKey, `auditId` → audit. */
export function idKindOf(word: string): IdKind | null {
  const base = word.replace(/Ids?$/, '').replace(/ies$/, 'y').replace(/s$/, '');
  const lower = base.charAt(0).toLowerCase() + base.slice(1);
  if (lower in ID_ALIASES) return ID_ALIASES[lower];
  return (ID_KINDS as string[]).includes(lower) ? (lower as IdKind) : null;
}

/**
 * For a field argument named plainly `id`: the kind of its return type, else the kind named in the field
 * (deleteProject).
 */
function idKindOfField(field: GraphQLField<unknown, unknown>): IdKind | null {
  const fromType = idKindOf(getNamedType(field.type).name);
  if (fromType) return fromType;
  const words = field.name.split(/(?=[A-Z])/);
  for (let i = words.length - 1; i >= 0; i--) {
    const kind = idKindOf(words.slice(i).join(''));
    if (kind) return kind;
  }
  return null;
}

interface Cell {
  surface: 'A' | 'B' | 'GraphQL(session)' | 'GraphQL(key)';
  name: string;
  /** The B ids this cell sends (echoing them back is not a leak). */
  sent: string[];
  /** A list or own-resource read: only leaks count, the status is not a 404. */
  leakOnly?: boolean;
  run(): Promise<HttpAnswer>;
  /** The same call with A's own id instead of B's: an answer that does not depend on the id reveals nothing. */
  control?(): Promise<HttpAnswer>;
}

const SITE_ROUTES = (site: RunningSite, title: string) => ({
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  '/': {
    body:
      `<!doctype html><html><head><title>${title} ` +
      `home</title></head><body><h1>${title}</h1><p>Welcome.</p><a href="/about">About ${title}</a> <img ` +
      `src="/logo.png"></body></html>`,
  },
  '/about': {
    body:
      `<!doctype html><html><head><title>${title} about</title></head><body><h1>About</h1><a ` +
      `href="${site.url('/')}">Home</a> <a href="/missing">Missing</a></body></html>`,
  },
});

async function setUpTenant(
  api: ApiClient,
  label: 'A' | 'B',
  site: RunningSite,
  log: (l: string) => void,
): Promise<Tenant> {
  const tag = `${label === 'A' ? 'alpha' : 'bravo'}${randomBytes(4).toString('hex')}`;
  const account = await signUp(api, `${tag}@drill.test`, `pw-${randomBytes(9).toString('hex')}`, `${tag} owner`);
  const key = await createApiKey(api, account, `${tag}-key-1`);
  const key2 = await createApiKey(api, account, `${tag}-key-2`);
  const auth = { cookie: account.cookie };
  const project = must(
    await api.request('/api/projects', {
      method: 'POST',
      headers: auth,
      body: { url: site.url('/'), name: `${tag} project` },
    }),
    200,
    `${label}: create project`,
  ).project;
  const keywords = must(
    await api.request(`/api/projects/${project.id}/keywords`, {
      method: 'POST',
      headers: auth,
      body: { keywords: [`${tag} shoes`, `${tag} boots`] },
    }),
    200,
    `${label}: add keywords`,
  ).keywords;
  const competitor = must(
    await api.request(`/api/projects/${project.id}/competitors`, {
      method: 'POST',
      headers: auth,
      body: { domain: `rival-${label.toLowerCase()}.drill.test` },
    }),
    200,
    `${label}: add competitor`,
  ).competitor;
  const started = must(
    await api.request(`/api/projects/${project.id}/audit`, { method: 'POST', headers: auth }),
    200,
    `${label}: start audit`,
  );
  const { audit } = await waitForAudit(api, account.cookie, project.id, started.auditId, 90_000);
  if (audit?.status !== 'COMPLETED') throw new Error(`${label}: the audit ended ${audit?.status}: ${audit?.error}`);
  const issue = audit.issues[0];
  if (!issue?.id) throw new Error(`${label}: the audit found no issue`);
  const members = await api.gql('{ members { id } }', {}, auth);
  const alerts = await alertIds(api, auth, project.id, site, tag);
  const wontFix = await wontFixId(api, auth, project.id, audit.id, issue.id, tag);
  const { segment, extractor } = await segmentAndExtractorIds(api, auth, project.id, tag);
  log(
    `${label}: project ${project.id}, audit ${audit.id} (${audit.issues.length} ` +
      `issues), ${keywords.length} keywords, competitor ${competitor.id}`,
  );
  const ids: TenantIds = {
    project: project.id,
    audit: audit.id,
    issue: issue.id,
    job: started.jobId,
    keyword: keywords[0].id,
    competitor: competitor.id,
    apiKey: key2.id,
    organization: account.organizationId,
    user: account.userId,
    member: members.json?.data?.members?.[0]?.id,
    ...alerts.ids,
    wontFix,
    segment,
    extractor,
  };
  const markers = [
    ...Object.values(ids).filter((v): v is string => !!v),
    ...keywords.map((k: { id: string }) => k.id),
    tag, // in names, terms, e-mail, key names, page titles
    site.host,
    `rival-${label.toLowerCase()}.drill.test`,
    key.key,
    key2.key,
    account.sessionToken,
  ];
  const credentials = [
    { what: 'password', value: account.password },
    { what: 'API key', value: key.key },
    { what: 'API key', value: key2.key },
    { what: 'webhook secret', value: alerts.secret },
    ...sessionSecrets(account.cookie, 'session'),
  ];
  return { label, account, key: key.key, site, ids, markers, credentials };
}

/** A "won't fix" marking of the issue's first occurrence in the tenant's audit. */
async function wontFixId(
  api: ApiClient,
  auth: { cookie: string },
  projectId: string,
  auditId: string,
  issueId: string,
  tag: string,
): Promise<string> {
  const ask = async (query: string, variables: Record<string, unknown>) => {
    const res = await api.gql(query, variables, auth);
    if (!res.json?.data || res.json.errors) throw new Error(`won't fix set-up failed: ${res.text.slice(0, 300)}`);
    return res.json.data as Record<string, any>;
  };
  const found = await ask(
    'query($p: ID!, $a: ID!, $i: ID!) { audit(projectId: $p, auditId: $a) { issue(id: $i) { code ' +
      'occurrences(first: 1) { nodes { url } } } } }',
    { p: projectId, a: auditId, i: issueId },
  );
  const issue = found.audit.issue as { code: string; occurrences: { nodes: { url: string }[] } };
  const marked = await ask(
    'mutation($p: ID!, $i: MarkWontFixInput!) { markWontFix(projectId: $p, input: $i) { id } }',
    { p: projectId, i: { auditId, code: issue.code, url: issue.occurrences.nodes[0].url, reason: `${tag} by design` } },
  );
  return marked.markWontFix.id as string;
}

/** A segment (a path prefix) and a custom extractor (a CSS selector) of the tenant's project. */
async function segmentAndExtractorIds(
  api: ApiClient,
  auth: { cookie: string },
  projectId: string,
  tag: string,
): Promise<{ segment: string; extractor: string }> {
  const ask = async (query: string, variables: Record<string, unknown>) => {
    const res = await api.gql(query, variables, auth);
    if (!res.json?.data || res.json.errors)
      throw new Error(`segment/extractor set-up failed: ${res.text.slice(0, 300)}`);
    return res.json.data as Record<string, any>;
  };
  const segment = await ask('mutation($p: ID!, $i: SegmentInput!) { createSegment(projectId: $p, input: $i) { id } }', {
    p: projectId,
    i: { name: `${tag} docs`, kind: 'PATH', pattern: '/' },
  });
  const extractor = await ask(
    'mutation($p: ID!, $i: CustomExtractorInput!) { addExtractor(projectId: $p, input: $i) { id } }',
    { p: projectId, i: { name: `${tag} heading`, kind: 'CSS', expression: 'h1' } },
  );
  return { segment: segment.createSegment.id as string, extractor: extractor.addExtractor.id as string };
}

/** An alert rule, a webhook endpoint (at the tenant's own site) and one delivery of a test event to it. */
async function alertIds(
  api: ApiClient,
  auth: { cookie: string },
  projectId: string,
  site: RunningSite,
  tag: string,
): Promise<{ ids: Pick<TenantIds, 'alertRule' | 'webhookEndpoint' | 'webhookDelivery'>; secret: string }> {
  const ask = async (query: string, variables: Record<string, unknown>) => {
    const res = await api.gql(query, variables, auth);
    if (!res.json?.data || res.json.errors) throw new Error(`alerts set-up failed: ${res.text.slice(0, 300)}`);
    return res.json.data as Record<string, any>;
  };
  const rule = await ask(
    'mutation($p: ID!) { createAlertRule(projectId: $p, input: { kind: SCORE_DROP, points: 5, channels: [WEBHOOK] }) ' +
      '{ id } }',
    { p: projectId },
  );
  const endpoint = await ask(
    'mutation($p: ID!, $u: String!, $d: String!) { createWebhookEndpoint(projectId: $p, input: { url: $u, ' +
      'description: $d }) { endpoint { id } secret } }',
    { p: projectId, u: site.url('/hook'), d: `${tag} hook` },
  );
  const endpointId = endpoint.createWebhookEndpoint.endpoint.id as string;
  await ask('mutation($e: ID!) { sendTestWebhook(endpointId: $e) { eventId } }', { e: endpointId });
  // The alert worker delivers the test event: its logged attempt is the delivery.
  for (let waited = 0; waited < 30_000; waited += 250) {
    const log = await ask('query($e: ID!) { webhookDeliveries(endpointId: $e, first: 1) { nodes { id } } }', {
      e: endpointId,
    });
    const delivery = log.webhookDeliveries.nodes[0]?.id as string | undefined;
    if (delivery)
      return {
        ids: { alertRule: rule.createAlertRule.id, webhookEndpoint: endpointId, webhookDelivery: delivery },
        secret: endpoint.createWebhookEndpoint.secret as string,
      };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the test webhook was not delivered within 30 s');
}

// ---------------------------------------------------------------- REST cells

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
};

/** The least valid value of a JSON schema, so that a request passes validation and reaches the tenant check. */
function sampleOf(schema: JsonSchema | undefined, name: string, own: Tenant): unknown {
  if (!schema) return undefined;
  if (schema.anyOf) return sampleOf(schema.anyOf[0], name, own);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sampleOf(schema.properties?.[key], key, own);
      return out;
    }
    case 'array':
      return Array.from(
        { length: Math.max(1, schema.minItems ?? 1) },
        (_, i) => `${sampleOf(schema.items, name, own)}${i || ''}`,
      );
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      const kind = idKindOf(name);
      if (kind && own.ids[kind]) return own.ids[kind];
      if (/url/i.test(name)) return own.site.url('/');
      if (/domain/i.test(name)) return 'rival-probe.drill.test';
      return 'drill probe';
    }
  }
}

interface AnyRoute {
  method: string;
  url: string;
  surface: string;
  schema?: { params?: unknown; querystring?: unknown; body?: unknown };
}

function restCells(
  api: ApiClient,
  a: Tenant,
  b: Tenant,
  failures: string[],
): { cells: Cell[]; routes: number; toolRoutes: number } {
  const routes: AnyRoute[] = [
    ...(v1Routes as AnyRoute[]),
    ...(apiRoutes as AnyRoute[]),
    ...(reportRoutes as AnyRoute[]),
    ...(v1ComparisonRoutes as AnyRoute[]),
    ...(apiComparisonRoutes as AnyRoute[]),
    ...(exportRoutes as AnyRoute[]),
  ];
  const cells: Cell[] = [];
  for (const route of routes) {
    const surface = route.surface as 'A' | 'B';
    const headers: Record<string, string> =
      surface === 'A' ? { authorization: `Bearer ${a.key}` } : { cookie: a.account.cookie };
    const segments = route.url.split('/');
    // A path parameter with an enum (an export's kind) is no id: the route is called once per value.
    const paramSchemas = (route.schema?.params as JsonSchema | undefined)?.properties ?? {};
    const enumParams = segments.filter((s) => s.startsWith(':') && paramSchemas[s.slice(1)]?.enum);
    const params = segments.flatMap((s, i) =>
      s.startsWith(':') && !enumParams.includes(s)
        ? [{ name: s.slice(1), kind: idKindOf(segments[i - 1] ?? '') ?? idKindOf(s.slice(1)) }]
        : [],
    );
    const unknown = params.filter((p) => !p.kind);
    if (unknown.length) {
      failures.push(
        `${route.method} ${route.url}: no id kind known for :${unknown.map((p) => p.name).join(', :')} ` +
          `(extend ID_KINDS)`,
      );
      continue;
    }
    const query = (route.schema?.querystring as JsonSchema | undefined)?.properties ?? {};
    // Each value of the enumerated path parameters, and each format (a CSV export reads other rows than JSON).
    let variants: Record<string, string>[] = [{}];
    for (const segment of enumParams)
      variants = variants.flatMap((v) =>
        (paramSchemas[segment.slice(1)].enum as string[]).map((value) => ({ ...v, [segment]: value })),
      );
    const formats = (query.format?.enum as string[] | undefined) ?? [undefined];
    const bodySchema = route.schema?.body as JsonSchema | undefined;
    const body =
      route.method === 'GET' || route.method === 'DELETE' ? undefined : (sampleOf(bodySchema, 'body', a) ?? undefined);
    const call = (p: string, q: Record<string, string>, bdy: unknown) => () => {
      const qs = new URLSearchParams(q).toString();
      return api.request(qs ? `${p}?${qs}` : p, { method: route.method, headers, body: bdy });
    };
    for (const variant of variants) {
      for (const format of formats) {
        const path = (owner: Tenant) =>
          segments
            .map((s) =>
              variant[s] !== undefined
                ? variant[s]
                : s.startsWith(':')
                  ? owner.ids[params.find((p) => p.name === s.slice(1))!.kind!]!
                  : s,
            )
            .join('/');
        const base: Record<string, string> = format === undefined ? {} : { format };
        const label =
          `${route.method} ${segments.map((s) => variant[s] ?? s).join('/')}` +
          (format === undefined ? '' : `?format=${format}`);
        if (!params.length) {
          // A list (or a creation): nothing of B's may show up in it.
          if (route.method === 'GET')
            cells.push({ surface, name: label, sent: [], leakOnly: true, run: call(path(a), base, undefined) });
          continue;
        }
        // Every path id B's.
        cells.push({
          surface,
          name: `${label} [path: B's ids]`,
          sent: params.map((p) => b.ids[p.kind!]!),
          run: call(path(b), base, body),
        });
        // A's own path, one id-like query or body field B's: a cross-tenant reference inside an own resource.
        for (const [field] of Object.entries(query)) {
          const kind = idKindOf(field);
          // auditId, and a comparison's base and head.
          if (!kind || !(field.endsWith('Id') || field in ID_ALIASES)) continue;
          // An export of the project's keywords takes no audit: the id is ignored, so only leaks count.
          const ignored = field === 'auditId' && Object.values(variant).includes('keywords');
          cells.push({
            surface,
            name: `${label} [own path, ?${field}=B's${ignored ? ', which does not apply' : ''}]`,
            sent: [b.ids[kind]!],
            leakOnly: ignored,
            run: call(path(a), { ...base, [field]: b.ids[kind]! }, body),
          });
        }
        for (const field of Object.keys(bodySchema?.properties ?? {})) {
          const kind = idKindOf(field);
          if (!kind || !field.endsWith('Id')) continue;
          const withB = { ...(body as Record<string, unknown>), [field]: b.ids[kind] };
          cells.push({
            surface,
            name: `${label} [own path, body.${field}=B's]`,
            sent: [b.ids[kind]!],
            run: call(path(a), base, withB),
          });
        }
      }
    }
  }
  // Destructive calls last, so a failed delete cannot mask the other cells.
  cells.sort((x, y) => Number(x.name.startsWith('DELETE')) - Number(y.name.startsWith('DELETE')));
  return { cells, routes: routes.length, toolRoutes: toolRoutes.length + checkRoutes.length };
}

// ---------------------------------------------------------------- GraphQL cells

interface Slot {
  /** e.g. Query.audit(auditId) or Mutation.suggestFix(input.issueId) or Query.audit > Audit.issue(id). */
  name: string;
  kind: IdKind | null;
  build(own: Tenant, foreign: Tenant): { query: string; variables: Record<string, unknown>; sent: string[] };
}

const unwrapNonNull = (t: GraphQLInputType): GraphQLInputType => (isNonNullType(t) ? t.ofType : t);

/** A value for a required argument or input field that is not the slot under test. */
function fillValue(type: GraphQLInputType, name: string, kindHint: IdKind | null, own: Tenant): unknown {
  const inner = unwrapNonNull(type);
  if (isListType(inner)) return [fillValue(inner.ofType, name, kindHint, own)];
  if (isInputObjectType(inner)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(inner.getFields())) {
      if (isNonNullType(f.type) && f.defaultValue === undefined)
        out[f.name] = fillValue(f.type, f.name, idKindOf(f.name), own);
    }
    return out;
  }
  if (isEnumType(inner)) return inner.getValues()[0].value;
  switch (inner.name) {
    case 'ID': {
      const kind = kindHint ?? idKindOf(name);
      return (kind && own.ids[kind]) ?? 'unknown-id';
    }
    case 'Int':
      return 1;
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    default:
      if (/url/i.test(name)) return own.site.url('/');
      if (/domain/i.test(name)) return 'rival-probe.drill.test';
      return 'drill probe';
  }
}

/** `__typename` and every leaf field without required arguments. */
function selection(type: GraphQLObjectType): string {
  const leaves = Object.values(type.getFields())
    .filter(
      (f) =>
        isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined),
    )
    .map((f) => f.name);
  return `{ __typename ${leaves.join(' ')} }`;
}

function typeText(type: GraphQLInputType): string {
  return String(type);
}

/**
 * Argument list and variables of a field call: `slotArg` gets the foreign id (or a patched input), the rest own values.
 */
function callOf(field: GraphQLField<unknown, unknown>, prefix: string, own: Tenant, override: Record<string, unknown>) {
  const defs: string[] = [];
  const args: string[] = [];
  const variables: Record<string, unknown> = {};
  for (const arg of field.args) {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    if (!(arg.name in override) && !required) continue;
    const v = `${prefix}${arg.name}`;
    defs.push(`$${v}: ${typeText(arg.type)}`);
    args.push(`${arg.name}: $${v}`);
    variables[v] =
      arg.name in override
        ? override[arg.name]
        : fillValue(arg.type, arg.name, arg.name === 'id' ? idKindOfField(field) : idKindOf(arg.name), own);
  }
  return { defs, call: args.length ? `${field.name}(${args.join(', ')})` : field.name, variables };
}

function returnSelection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  return isObjectType(named) ? selection(named) : '';
}

/** The ID slots of one field: ID arguments and ID fields inside its input-object arguments (recursively). */
function idSlotsOf(
  field: GraphQLField<unknown, unknown>,
): { path: string[]; arg: GraphQLArgument; kind: IdKind | null }[] {
  const out: { path: string[]; arg: GraphQLArgument; kind: IdKind | null }[] = [];
  const walk = (arg: GraphQLArgument, type: GraphQLInputType, path: string[], seen: Set<string>) => {
    const named = getNamedType(type);
    if (named.name === 'ID') {
      const last = path[path.length - 1];
      out.push({ path, arg, kind: last === 'id' && path.length === 1 ? idKindOfField(field) : idKindOf(last) });
    } else if (isInputObjectType(named) && !seen.has(named.name)) {
      for (const f of Object.values(named.getFields()) as GraphQLInputField[])
        walk(arg, f.type, [...path, f.name], new Set([...seen, named.name]));
    }
  };
  for (const arg of field.args) walk(arg, arg.type, [arg.name], new Set());
  return out;
}

function setPath(base: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const obj = { ...((base as Record<string, unknown>) ?? {}) };
  obj[path[0]] = setPath(obj[path[0]], path.slice(1), value);
  return obj;
}

export function graphqlSlots(schema: GraphQLSchema): Slot[] {
  const slots: Slot[] = [];
  const roots: [string, GraphQLObjectType][] = [
    ['query', schema.getQueryType()!],
    ['mutation', schema.getMutationType()!],
  ];
  for (const [op, root] of roots) {
    for (const field of Object.values(root.getFields())) {
      for (const slot of idSlotsOf(field)) {
        slots.push({
          name: `${root.name}.${field.name}(${slot.path.join('.')})`,
          kind: slot.kind,
          build(own, foreign) {
            const foreignId = foreign.ids[slot.kind!]!;
            const ownArgValue =
              isNonNullType(slot.arg.type) || slot.path.length > 1
                ? fillValue(
                    slot.arg.type,
                    slot.arg.name,
                    slot.path.length === 1 && slot.arg.name === 'id' ? idKindOfField(field) : idKindOf(slot.arg.name),
                    own,
                  )
                : undefined;
            const value = slot.path.length === 1 ? foreignId : setPath(ownArgValue, slot.path.slice(1), foreignId);
            const c = callOf(field, '', own, { [slot.arg.name]: value });
            return {
              query: `${op}${c.defs.length ? `(${c.defs.join(', ')})` : ''} { ${c.call} ${returnSelection(field)} }`,
              variables: c.variables,
              sent: [foreignId],
            };
          },
        });
      }
    }
  }
  // Nested fields with ID arguments (Audit.issue(id)), reached by the shortest path of Query fields that
  // A's own ids can fill.
  const queryType = schema.getQueryType()!;
  const paths = new Map<string, GraphQLField<unknown, unknown>[]>();
  const queue: [GraphQLObjectType, GraphQLField<unknown, unknown>[]][] = [[queryType, []]];
  while (queue.length) {
    const [type, path] = queue.shift()!;
    if (path.length > 3) continue;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (!isObjectType(named) || paths.has(named.name) || named === queryType) continue;
      paths.set(named.name, [...path, field]);
      queue.push([named, [...path, field]]);
    }
  }
  for (const [typeName, path] of paths) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    for (const field of Object.values(type.getFields())) {
      for (const slot of idSlotsOf(field)) {
        if (slot.path.length !== 1) continue;
        slots.push({
          name: `${path.map((f) => f.name).join(' > ')} > ${typeName}.${field.name}(${slot.arg.name})`,
          kind: slot.kind,
          build(own, foreign) {
            const foreignId = foreign.ids[slot.kind!]!;
            const defs: string[] = [];
            const variables: Record<string, unknown> = {};
            let open = '';
            let close = '';
            path.forEach((f, i) => {
              const c = callOf(f, `p${i}_`, own, {});
              defs.push(...c.defs);
              Object.assign(variables, c.variables);
              open += `${c.call} { `;
              close += ' }';
            });
            const c = callOf(field, 'x_', own, { [slot.arg.name]: foreignId });
            defs.push(...c.defs);
            Object.assign(variables, c.variables);
            return {
              query:
                `query${defs.length ? `(${defs.join(', ')})` : ''} ` +
                `{ ${open}${c.call} ${returnSelection(field)}${close} }`,
              variables,
              sent: [foreignId],
            };
          },
        });
      }
    }
  }
  return slots;
}

function graphqlCells(api: ApiClient, a: Tenant, b: Tenant, failures: string[]): { cells: Cell[]; slots: number } {
  const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
  const slots = graphqlSlots(schema);
  const cells: Cell[] = [];
  for (const slot of slots) {
    if (!slot.kind || !b.ids[slot.kind]) {
      failures.push(`GraphQL ${slot.name}: no id kind known for this ID slot (extend ID_KINDS)`);
      continue;
    }
    const built = slot.build(a, b);
    const control = slot.build(a, a);
    for (const [surface, headers] of [
      ['GraphQL(session)', { cookie: a.account.cookie }],
      ['GraphQL(key)', { authorization: `Bearer ${a.key}` }],
    ] as const) {
      cells.push({
        surface,
        name: slot.name,
        sent: built.sent,
        run: () => api.gql(built.query, built.variables, headers),
        control: () => api.gql(control.query, control.variables, headers),
      });
    }
  }
  // Reads without required arguments (projects, apiKeys, members, viewer): A's own lists, nothing of B's.
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const named = getNamedType(field.type);
    if (!isObjectType(named) || field.args.some((x) => isNonNullType(x.type) && x.defaultValue === undefined)) continue;
    const query = `{ ${field.name} ${selection(named)} }`;
    for (const [surface, headers] of [
      ['GraphQL(session)', { cookie: a.account.cookie }],
      ['GraphQL(key)', { authorization: `Bearer ${a.key}` }],
    ] as const) {
      cells.push({
        surface,
        name: `Query.${field.name} (own list)`,
        sent: [],
        leakOnly: true,
        run: () => api.gql(query, {}, headers),
      });
    }
  }
  const destructive = (c: Cell) => Number(/\.(delete|remove|revoke)\w*\(/.test(c.name));
  cells.sort((x, y) => destructive(x) - destructive(y));
  return { cells, slots: slots.length };
}

// ---------------------------------------------------------------- B's state

async function snapshot(api: ApiClient, b: Tenant): Promise<string> {
  const res = await api.gql(
    `query($p: ID!) {
      project(id: $p) { id name url domain settings { maxPages maxDepth crawlDelayMs userAgent ` +
      `respectRobots } counts { audits keywords competitors } }
      keywords(projectId: $p) { id term }
      competitors(projectId: $p) { id domain }
      audits(projectId: $p) { totalCount nodes { id status overallScore pagesCrawled issueCounts { ` +
      `critical warning notice } } }
      apiKeys { id name prefix revokedAt }
      members { id role }
    }`,
    { p: b.ids.project },
    { cookie: b.account.cookie },
  );
  if (!res.json?.data) throw new Error(`B snapshot failed: ${res.text}`);
  return JSON.stringify(res.json.data);
}

function isNotFound(cell: Cell, res: HttpAnswer): boolean {
  if (cell.surface.startsWith('GraphQL')) {
    const errors = res.json?.errors as { extensions?: { code?: string } }[] | undefined;
    return !!errors?.length && errors.every((e) => e.extensions?.code === 'NOT_FOUND');
  }
  return res.status === 404 && res.json?.code === 'NOT_FOUND';
}

export const drill: Drill = {
  description: "tenant matrix: every route and ID-taking GraphQL field with another organization's ids → 404, 0 leaks",
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const started = Date.now();
    const siteA = await startFixtureSite({ host: 'tenant-a.drill.test' });
    const siteB = await startFixtureSite({ host: 'tenant-b.drill.test' });
    const hosts = [
      'tenant-a.drill.test',
      'tenant-b.drill.test',
      'rival-a.drill.test',
      'rival-b.drill.test',
      'rival-probe.drill.test',
    ];
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: {
        DEFAULT_PLAN: 'ENTERPRISE',
        SAFE_HTTP_ALLOW: hosts.join(','),
        SAFE_HTTP_RESOLVE: hosts.map((h) => `${h}=127.0.0.1`).join(','),
        ANONYMOUS_RATE_PER_MINUTE: '10000',
      },
    });
    const figures: Record<string, unknown> = {};
    const credentials: { what: string; value: string }[] = [];
    try {
      const api = apiClient(platform.apis[0].baseUrl);
      siteA.serve(SITE_ROUTES(siteA, 'alpha site'));
      siteB.serve(SITE_ROUTES(siteB, 'bravo site'));
      const [a, b] = await Promise.all([setUpTenant(api, 'A', siteA, log), setUpTenant(api, 'B', siteB, log)]);
      credentials.push(...a.credentials, ...b.credentials);
      const before = await snapshot(api, b);

      const failures: string[] = [];
      const rest = restCells(api, a, b, failures);
      const graph = graphqlCells(api, a, b, failures);
      for (const f of failures) expect(false, f);
      let cells = [...rest.cells, ...graph.cells];
      // Quick form: every route and field once (the session half of GraphQL), the destructive ones included.
      if (quick) cells = cells.filter((c) => c.surface !== 'GraphQL(key)');
      log(
        `${rest.routes} tenant routes (${rest.toolRoutes} public tool routes have no ids), ${graph.slots} ` +
          `GraphQL ID slots → ${cells.length} cells`,
      );

      const perSurface: Record<string, { cells: number; notFound: number; leaks: number; forbiddenAnyId?: number }> =
        {};
      for (const cell of cells) {
        const res = await cell.run();
        if (process.env.DRILL_VERBOSE) log(`${cell.surface} ${cell.name} → ${res.status} ${res.text.slice(0, 160)}`);
        const s = (perSurface[cell.surface] ??= { cells: 0, notFound: 0, leaks: 0 });
        s.cells++;
        const markers = b.markers.filter((m) => !cell.sent.includes(m));
        const leaked = markers.filter((m) => res.text.includes(m));
        if (leaked.length) s.leaks++;
        expect(
          leaked.length === 0,
          `${cell.surface} ${cell.name}: B's data in the answer (${leaked.join(', ')}): ${res.text.slice(0, 300)}`,
        );
        if (cell.leakOnly) {
          // (apiKeys and members are for owners and admins; A is the owner: every list answers.)
          // An API key may not list keys or members (FORBIDDEN whatever the organization holds).
          const codes = ((res.json?.errors ?? []) as { extensions?: { code?: string } }[]).map(
            (e) => e.extensions?.code,
          );
          expect(
            res.status === 200 && codes.every((c) => c === 'FORBIDDEN'),
            `${cell.surface} ${cell.name}: A's own list answered ${res.status} ${res.text.slice(0, 200)}`,
          );
          continue;
        }
        const ok = isNotFound(cell, res);
        if (ok) {
          s.notFound++;
          continue;
        }
        // FORBIDDEN for the credential itself (an API key may not manage keys): fine only when A's own id gets
        // the very same answer, so that it says nothing about B's id.
        const forbidden =
          cell.surface.startsWith('GraphQL') &&
          (res.json?.errors ?? []).every((e: { extensions?: { code?: string } }) => e.extensions?.code === 'FORBIDDEN');
        if (forbidden && cell.control) {
          const control = await cell.control();
          const same =
            JSON.stringify(control.json?.errors?.map((e: { message: string }) => e.message)) ===
            JSON.stringify(res.json?.errors?.map((e: { message: string }) => e.message));
          if (same) {
            s.forbiddenAnyId = (s.forbiddenAnyId ?? 0) + 1;
            continue;
          }
        }
        expect(false, `${cell.surface} ${cell.name}: expected NOT_FOUND, got ${res.status} ${res.text.slice(0, 300)}`);
      }
      const after = await snapshot(api, b);
      expect(after === before, `B's data changed after A's attempts:\nbefore ${before}\nafter  ${after}`);
      // A's own requests still work (the 404s were about B's ids, not a broken credential).
      const own = await api.request(`/api/v1/projects/${a.ids.project}/audit`, {
        headers: { authorization: `Bearer ${a.key}` },
      });
      expect(own.status === 200, `A's own audit over /api/v1 answered ${own.status}`);
      const unexpected5xx = /"level":(50|60)/.test(platform.logs())
        ? platform
            .logs()
            .split('\n')
            .filter((l) => /"level":(50|60)/.test(l)).length
        : 0;
      Object.assign(figures, {
        routes: rest.routes,
        graphqlIdSlots: graph.slots,
        cells: cells.length,
        perSurface,
        notFound: Object.values(perSurface).reduce((n, s) => n + s.notFound, 0),
        leaks: Object.values(perSurface).reduce((n, s) => n + s.leaks, 0),
        bUnchanged: after === before,
        errorLogLines: unexpected5xx,
        waitedFor429Ms: api.waitedFor429Ms(),
        seconds: Math.round((Date.now() - started) / 1000),
      });
    } finally {
      keepLogs('tenant', platform.logs(), credentials);
      await platform.stop();
      await siteA.close();
      await siteB.close();
    }
    return result(figures);
  },
};
