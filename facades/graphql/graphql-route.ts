import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import Negotiator from 'negotiator';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { GraphQLFormattedError } from 'graphql';
import { DomainError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../src/platform/errors.js';
import { asUnavailable } from '../../src/platform/infra-errors.js';
import type { RequestContext } from '../../src/platform/context.js';
import { GraphQLReadLane } from '../../src/platform/fast-path/graphql-read-lane.js';
import type { DomainApi } from '../../schema/domain-runtime.js';
import { admit, requestContext, type Admission } from '../http/http-guard.js';
import { htmlPageHeaders } from '../http/html-page-headers.js';
import { QUERY_TOO_COMPLEX, knownOperationTypeRule, queryLimitErrorOf, queryLimitsRule } from './graphql-limits.js';
import {
  GRAPHQL_PATH,
  graphQLError,
  graphQLExtensions,
  sendError,
  sendRefusal,
  type Refusal,
} from '../http/error-translators.js';

export { GRAPHQL_PATH } from '../http/error-translators.js';

/** The methods /graphql serves (GraphQL over HTTP); any other is METHOD_NOT_ALLOWED. */
const GRAPHQL_METHODS = ['GET', 'POST'];

/** Apollo's 405 (a mutation sent over GET) under the vocabulary's code, keeping Apollo's Allow header. */
function methodNotAllowed(error: unknown): boolean {
  const http = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http;
  return http?.status === 405;
}

/** Apollo's view of our errors: DomainError codes as extensions.code, anything unexpected made generic. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const tooComplex = queryLimitErrorOf(error);
  if (tooComplex) {
    const extensions = {
      ...graphQLExtensions(QUERY_TOO_COMPLEX),
      limit: tooComplex.limit,
      measured: tooComplex.measured,
      maximum: tooComplex.maximum,
    };
    return { message: formatted.message, locations: formatted.locations, extensions };
  }
  if (methodNotAllowed(error))
    return {
      message: formatted.message,
      locations: formatted.locations,
      extensions: graphQLExtensions('METHOD_NOT_ALLOWED'),
    };
  const unwrapped = unwrapResolverError(error);
  const original = unwrapped instanceof DomainError ? unwrapped : (asUnavailable(unwrapped) ?? unwrapped);
  if (original instanceof DomainError) {
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: graphQLExtensions(original.code, original.details),
    };
  }
  const code = formatted.extensions?.code;
  if (code && code !== 'INTERNAL_SERVER_ERROR')
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  return {
    message: 'Internal server error',
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'INTERNAL' },
  };
}

/**
 * Variable coercion errors suggest names too ("Did you mean the enum value …?"); Apollo's
 * hideSchemaDetailsFromClientErrors strips them from validation errors only.
 */
export function withoutSuggestions(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const message = formatted.message.replace(/ ?Did you mean [^?]*\?/g, '');
  return message === formatted.message ? formatted : { ...formatted, message };
}

const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];

/**
 * Apollo's CSRF prevention, for requests that carry a cookie: a browser can send those cross-site
 * without a CORS preflight only with no or a "simple" content type and no custom header. Requests
 * without a cookie carry no ambient credential, so plain GET queries (GraphQL over HTTP) are served.
 */
export function csrfRisk(request: FastifyRequest): boolean {
  if (!request.headers.cookie) return false;
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !SIMPLE_CONTENT_TYPES.has(contentType.split(';')[0].trim().toLowerCase()))
    return false;
  return !PREFLIGHT_HEADERS.some((name) => {
    const value = request.headers[name];
    return typeof value === 'string' && value.length > 0;
  });
}

/** GraphQL request errors: a well-formed GraphQL-over-HTTP request that GraphQL itself refused. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  QUERY_TOO_COMPLEX,
]);

/**
 * GraphQL over HTTP: with the legacy `application/json` response type, request errors (parse, validation,
 * variable coercion, limits) answer 200 so that older clients read the errors; with
 * `application/graphql-response+json` they keep Apollo's 400. Malformed HTTP requests stay 4xx.
 */
async function legacyJsonStatus(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode !== 400 || typeof payload !== 'string') return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  try {
    const body = JSON.parse(payload) as { data?: unknown; errors?: { extensions?: { code?: unknown } }[] };
    const codes = body.errors?.map((e) => e?.extensions?.code);
    if (!('data' in body) && codes?.length && codes.every((c) => typeof c === 'string' && REQUEST_ERROR_CODES.has(c)))
      reply.code(200);
  } catch {}
  return payload;
}

/** The query-string parameters of a GraphQL-over-HTTP GET request. */
const GRAPHQL_PARAMS = ['query', 'operationName', 'variables', 'extensions'];
const LANDING_HEADERS = htmlPageHeaders("default-src 'none'; base-uri 'none'; form-action 'none'", 'no-referrer');

/**
 * GET /graphql from a browser: a page pointing at the local explorer (Apollo's default loads from a CDN).
 * Only a GET that carries no GraphQL request gets it: Apollo would serve its landing page to any GET that
 * prefers HTML, `?query=` (even a malformed, repeated one) included, instead of answering the request.
 */
export function wantsLandingPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' || !/\btext\/html\b/i.test(request.headers.accept ?? '')) return false;
  const query = (request.query ?? {}) as Record<string, unknown>;
  return !GRAPHQL_PARAMS.some((name) => Object.hasOwn(query, name));
}

function landingPage(explorerPath: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GraphQL endpoint</title>
<meta http-equiv="refresh" content="0; url=${explorerPath}"></head>
<body><p>This is the GraphQL endpoint (POST or GET). Open the <a href="${explorerPath}">GraphQL ` +
    `explorer</a>.</p></body></html>`
  );
}

/** Responses carry per-organization data: never cacheable (what Apollo's cache-control plugin would send). */
function noStore(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}

/**
 * PostgreSQL or Redis unreachable: when every error of a response is UNAVAILABLE, the response is a 503 with
 * Retry-After, as on the REST surfaces, still in GraphQL's shape.
 */
function unavailableStatus(runtime: Pick<DomainApi, 'dependencies'>): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const sent = response.body.singleResult.errors;
          if (!sent?.length || !sent.every((e) => e.extensions?.code === 'UNAVAILABLE')) return;
          void runtime.dependencies.check();
          const { status, headers } = graphQLError({
            code: 'UNAVAILABLE',
            message: '',
            retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
          });
          response.http.status = status;
          for (const [name, value] of Object.entries(headers)) response.http.headers.set(name, value);
        },
      };
    },
  };
}

/**
 * An unexpected error in a resolver is answered INTERNAL with no detail (formatGraphQLError), inside a 200: it is
 * logged here with the request id, as sendError logs a REST 500, so that it can be found (issue 61: a forged export
 * cursor failed this way with no log line).
 */
function logUnexpectedErrors(app: FastifyInstance): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            if (formatGraphQLError(error, error).extensions?.code !== 'INTERNAL') continue;
            app.log.error({ reqId: contextValue.requestId, err: unwrapResolverError(error) }, 'request failed');
          }
        },
      };
    },
  };
}

/** Apollo Server on /graphql: auth and rate limits first, then depth/cost limits and the domain schema. */
/**
 * The Query fields that only read what is stored (no outbound fetch, no rendering, no export file): what the read
 * lane may run, and run again through Apollo when its answer has an error. The free tools (which fetch), the client
 * report's PDF (Chromium) and export files stay Apollo's.
 */
export const STORED_DATA_READS: ReadonlySet<string> = new Set([
  'apiKeys',
  'audit',
  'auditOccurrences',
  'audits',
  'clientReport',
  'competitorOverview',
  'competitors',
  'job',
  'keywordRankings',
  'keywords',
  'mailEnabled',
  'members',
  'project',
  'projectOrganization',
  'projects',
  'rankTracking',
  'reports',
  'technical',
  'viewer',
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/** The two single-result media types of Apollo's negotiation (its callback variant stays Apollo's). */
const RESPONSE_TYPES = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'application/json; callbackSpec=1.0; charset=utf-8',
];

/**
 * The read lane's answer to a POST /graphql request (src/platform/fast-path/graphql-read-lane.ts), or null when
 * Apollo answers it: any request Apollo would refuse or read otherwise (body shape, extensions, Accept), a document
 * the lane does not run, and any result with an error. Its success response is Apollo's: status 200, the media type
 * Apollo negotiates from Accept, cache-control no-store, the result's JSON and a newline.
 */
async function readLaneAnswer(
  lane: GraphQLReadLane,
  runtime: Pick<DomainApi, 'createContext'>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string | null> {
  const body = request.body;
  if (request.method !== 'POST' || !isRecord(body) || typeof body.query !== 'string' || body.query === '') return null;
  if (body.extensions !== undefined && body.extensions !== null) return null;
  const { variables, operationName } = body;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  const accept = request.headers.accept;
  const type = accept ? new Negotiator({ headers: { accept } }).mediaType(RESPONSE_TYPES) : RESPONSE_TYPES[0];
  if (type !== RESPONSE_TYPES[0] && type !== RESPONSE_TYPES[1]) return null;
  const compiled = lane.operation(body.query, operationName ?? undefined);
  if (!compiled) return null;
  const context = requestContext(runtime, request, reply);
  let result: Awaited<ReturnType<typeof compiled.query>>;
  try {
    result = await compiled.query(undefined, context, variables ?? {});
  } catch {
    return null;
  }
  if (result.errors?.length) return null;
  void reply.header('content-type', type).header('cache-control', 'no-store').code(200);
  return `${JSON.stringify({ data: result.data })}\n`;
}

export async function mountGraphQL(
  app: FastifyInstance,
  runtime: Admission & Pick<DomainApi, 'schema' | 'createContext' | 'dependencies' | 'fastPaths'>,
  options: { explorerPath: string },
): Promise<ApolloServer<RequestContext>> {
  const { config } = runtime;
  const limits = queryLimitsRule({ maxDepth: config.GRAPHQL_MAX_DEPTH, maxCost: config.GRAPHQL_MAX_COST });
  const apollo = new ApolloServer<RequestContext>({
    schema: runtime.schema,
    introspection: config.introspection,
    // Without introspection, validation errors must not rebuild the schema either ("Did you mean …?").
    hideSchemaDetailsFromClientErrors: !config.introspection,
    includeStacktraceInErrorResponses: false,
    formatError: config.introspection
      ? formatGraphQLError
      : (formatted, error) => withoutSuggestions(formatGraphQLError(formatted, error)),
    // Replaced by csrfRisk(): Apollo's version also refuses cookie-less GET queries.
    csrfPrevention: false,
    validationRules: [knownOperationTypeRule, limits],
    // The schema declares no cache hints, so the cache-control plugin could only ever answer no-store; it
    // would also wrap every field resolver of the shared schema (REST routes included) to collect hints.
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      noStore(),
      unavailableStatus(runtime),
      logUnexpectedErrors(app),
      fastifyApolloDrainPlugin(app),
      ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await apollo.start();
  const landing = landingPage(options.explorerPath);
  const lane = runtime.fastPaths.graphqlReadLane
    ? new GraphQLReadLane({
        schema: runtime.schema,
        validationRules: [knownOperationTypeRule, limits],
        readFields: STORED_DATA_READS,
      })
    : null;
  const apolloHandler = fastifyApolloHandler(apollo, {
    context: async (request, reply) => requestContext(runtime, request, reply),
  }) as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  app.route({
    // Other methods are routed here too, to be refused as METHOD_NOT_ALLOWED in GraphQL shape with Allow.
    method: ['GET', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'],
    url: GRAPHQL_PATH,
    async preHandler(request, reply) {
      if (!GRAPHQL_METHODS.includes(request.method)) {
        return sendRefusal(reply, {
          code: 'METHOD_NOT_ALLOWED',
          message: `${GRAPHQL_PATH} supports only GET and POST requests.`,
          allow: GRAPHQL_METHODS,
        });
      }
      if (wantsLandingPage(request))
        return reply.headers(LANDING_HEADERS).type('text/html; charset=utf-8').send(landing);
      if (csrfRisk(request)) {
        const message =
          'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF): with a cookie, ' +
          "send a 'content-type' header " +
          (`other than ${[...SIMPLE_CONTENT_TYPES].join(', ')}, or a ` +
            `non-empty ${PREFLIGHT_HEADERS.join(' or ')} header.`);
        return sendRefusal(reply, { code: 'BAD_USER_INPUT', message });
      }
      let refused: Refusal | null;
      try {
        refused = await admit(runtime, 'GRAPHQL', request, reply);
      } catch (err) {
        // PostgreSQL or Redis out of reach (authentication, rate limit) is UNAVAILABLE; anything else is rethrown.
        if (asUnavailable(err)) return sendError(reply, err);
        throw err;
      }
      if (refused) return sendRefusal(reply, refused);
    },
    onSend: legacyJsonStatus,
    // The handler's own typing declares a string reply; this route also answers errors as objects.
    handler: (async (request, reply) =>
      (lane && (await readLaneAnswer(lane, runtime, request, reply))) ??
      apolloHandler(request, reply)) as RouteHandlerMethod,
  });
  return apollo;
}
