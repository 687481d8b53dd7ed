import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifyCompress from '@fastify/compress';
import type { DomainApi } from '../schema/domain-runtime.js';
import { LazyChildLogger, type Logger } from '../src/platform/logger.js';
import { registerRoutes, registerStreamRoutes, type RestRoute, type StreamRoute } from './rest/rest-mapper.js';
import {
  holdRefusal,
  rateLimitMessage,
  setRateHeaders,
  tooMany,
  toWebHeaders,
  type RateLimitResult,
} from './http/http-guard.js';
import { RouteMethods, clientErrorHandler, handleRequestError, installJsonBodyParser } from './http/request-errors.js';
import { answerAfterUnreadBody } from './http/unread-body.js';
import { sendRefusal } from './http/error-translators.js';
import { HttpMetrics, MetricsLogController } from './http/http-metrics.js';
import { mountOps } from './http/ops-routes.js';
import { mountGraphQL } from './graphql/graphql-route.js';
import { registerApiDocs } from './docs/docs-routes.js';
import { SHARED_SCHEMAS } from './openapi/components.js';
import { swaggerOptions } from './openapi/document.js';
import { EXPLORER_PATH } from './docs/pages.js';
import { v1Routes } from './v1/routes.js';
import { apiRoutes } from './api/routes.js';
import { toolRoutes } from './api/tool-routes.js';
import { checkRoutes } from './api/check-routes.js';
import { reportRoutes } from './api/report-routes.js';
import { exportRoutes } from './v1/export-routes.js';
import { urlTableRoutes } from './v1/url-table-routes.js';
import { comparisonRoutes as v1ComparisonRoutes } from './v1/comparison-routes.js';
import { comparisonRoutes as apiComparisonRoutes } from './api/comparison-routes.js';
import { WEB_SSR_DIST, isWebAppPath, registerWebApp } from './http/web-app.js';
import { createServerRenderer } from './http/server-render.js';
import { createPublicDataPages } from './http/check-pages.js';

/** A route as Fastify registered it (the OpenAPI test compares them with the documents). */
export interface RegisteredRoute {
  method: string | string[];
  url: string;
  /** The status codes its response schema declares. */
  responses: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: readonly RegisteredRoute[];
  }
}

export const ROUTES: RestRoute[] = [...v1Routes, ...apiRoutes, ...toolRoutes, ...checkRoutes];
export const STREAM_ROUTES: StreamRoute[] = [
  ...reportRoutes,
  ...exportRoutes,
  ...urlTableRoutes,
  ...v1ComparisonRoutes,
  ...apiComparisonRoutes,
];
const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;
/** Responses smaller than this are sent as they are: compressing them saves less than it costs. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** A refusal of ours on /api/auth/* in better-auth's error shape (`{ code, message }`), with the rate headers. */
async function authTooMany(
  config: DomainApi['config'],
  reply: FastifyReply,
  rate: RateLimitResult,
  message: string,
): Promise<FastifyReply> {
  await holdRefusal(config, rate);
  setRateHeaders(reply, rate);
  return reply.code(429).header('retry-after', String(rate.resetSeconds)).send({ code: 'RATE_LIMITED', message });
}

async function mountAuth(
  app: FastifyInstance,
  runtime: Pick<
    DomainApi,
    'config' | 'peekRateLimit' | 'rateLimit' | 'handleAuth' | 'authenticate' | 'appRateFor' | 'signUpRate'
  >,
) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    async handler(request, reply) {
      const signIn = request.method === 'POST' && request.url.startsWith('/api/auth/sign-in');
      const signUp = request.method === 'POST' && request.url.startsWith('/api/auth/sign-up');
      const failureBucket = `ip:${request.ip}:authfail`;
      if (signIn) {
        const state = await runtime.peekRateLimit(failureBucket, runtime.config.AUTH_FAILURES_PER_MINUTE);
        // Our refusal, in the REST shape; better-auth's own answers below keep better-auth's shape.
        if (!state.allowed) {
          await holdRefusal(runtime.config, state);
          return sendRefusal(reply, tooMany(reply, state, 'Too many failed sign-in attempts. Try again later.'));
        }
      }
      if (signUp) {
        // Accounts are cheap to make and each brings an organization: sign-ups are limited per client IP.
        const rate = await runtime.signUpRate(request.ip);
        if (!rate.allowed)
          return authTooMany(
            runtime.config,
            reply,
            rate,
            `Too many sign-ups from this address: ${rate.limit} per hour. Retry in ${rate.resetSeconds}s.`,
          );
      }
      if (request.headers.cookie) {
        // The web app's own calls with a session share its per-user budget with its GraphQL calls.
        const principal = await runtime.authenticate(
          { session: { cookie: request.headers.cookie, headers: () => toWebHeaders(request) } },
          'GRAPHQL',
        );
        if (principal?.userId) {
          const { bucket, limit, burst } = runtime.appRateFor(principal.userId);
          const rate = await runtime.rateLimit(bucket, limit, burst);
          if (!rate.allowed) return authTooMany(runtime.config, reply, rate, rateLimitMessage(rate));
          setRateHeaders(reply, rate);
        }
      }
      const url = new URL(request.url, runtime.config.baseUrl);
      const body = request.body === undefined || request.method === 'GET' ? undefined : JSON.stringify(request.body);
      const response = await runtime.handleAuth(
        new Request(url, { method: request.method, headers: toWebHeaders(request), body }),
      );
      if (signIn && response.status === 401)
        await runtime.rateLimit(failureBucket, runtime.config.AUTH_FAILURES_PER_MINUTE);
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) reply.header('set-cookie', cookies);
      return reply.send(await response.text());
    },
  });
}

/** Assembles the HTTP server of one API process: better-auth, both REST surfaces, GraphQL and ops endpoints. */
export async function buildServer(runtime: DomainApi): Promise<FastifyInstance> {
  const { config } = runtime;
  const http = new HttpMetrics();
  const app = Fastify({
    loggerInstance: runtime.logger as FastifyBaseLogger,
    logController: new MetricsLogController(http),
    // Request loggers become pino children when a request first writes at an enabled level.
    childLoggerFactory: (logger, bindings, options) =>
      new LazyChildLogger(
        logger as Logger,
        bindings,
        options.level || options.serializers ? options : undefined,
      ) as unknown as FastifyBaseLogger,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: config.BODY_LIMIT_BYTES,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, useDefaults: true } },
    // Path parameters of any length reach validation (maxLength 200), which names the parameter in its details;
    // the request line itself is bounded by Node's 16 KB header limit.
    routerOptions: { maxParamLength: 16 * 1024 },
    clientErrorHandler,
    // Router-level refusals (undecodable URL, oversize parameter) in the API's error shape, not Fastify's.
    frameworkErrors: (err, request, reply) => {
      const [message, detail] =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? ['A path parameter is too long.', 'a parameter is too long']
          : ['Malformed URL.', 'is not valid percent-encoded UTF-8'];
      sendRefusal((reply as FastifyReply).header('x-request-id', String(request.id)), {
        code: 'BAD_USER_INPUT',
        message,
        details: [{ path: 'path', message: detail }],
      });
    },
  }) as unknown as FastifyInstance;
  // Every route's methods, so that a known path asked with another method is a 405 with Allow, not a 404.
  const routeMethods = new RouteMethods();
  const registered: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    routeMethods.add(route.url, route.method);
    registered.push({ method: route.method, url: route.url, responses: Object.keys(route.schema?.response ?? {}) });
  });
  app.decorate('registeredRoutes', registered);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', String(request.id));
    done();
  });
  app.setErrorHandler(handleRequestError);
  answerAfterUnreadBody(app);
  // Responses over 1 KB are compressed (br, gzip) for clients that accept it: route responses only, so streams (CSV
  // exports) too; request bodies are not decompressed (a Content-Encoding on a request stays refused as before).
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip', 'deflate'],
    globalDecompression: false,
  });
  app.decorate('dependencyMonitor', runtime.dependencies);
  // Declared up front (Fastify's decorateRequest), so that every request object has one shape: a property added per
  // request by the guard would give requests two hidden classes and make Fastify's own property reads polymorphic.
  app.decorateRequest('principal', null);
  installJsonBodyParser(app);
  const renderer = createServerRenderer(runtime, { root: WEB_SSR_DIST, enabled: config.SERVER_RENDERING });
  const publicPages = createPublicDataPages(runtime, { root: WEB_SSR_DIST, publicUrl: config.baseUrl });
  const web = await registerWebApp(app, { publicUrl: config.baseUrl, renderer, publicPages });
  // Paths of the web application's router get its page (it shows its own 404); a known path asked with another
  // method is a 405 with Allow; other paths are JSON 404s.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (isWebAppPath(request.method, path)) return web.sendIndex(request, reply);
    const allow = routeMethods.allowed(path);
    // A route of this method that calls the not-found handler itself (a missing static file) is a 404.
    if (allow.length && !allow.includes(request.method)) {
      return sendRefusal(reply, {
        code: 'METHOD_NOT_ALLOWED',
        message: `Method ${request.method} not allowed on ${path}: use ${allow.join(', ')}.`,
        allow,
      });
    }
    return sendRefusal(reply, { code: 'NOT_FOUND', message: `Route ${request.method} ${path} not found` });
  });

  mountOps(app, runtime, http);
  await mountAuth(app, runtime);

  await mountGraphQL(app, runtime, { explorerPath: EXPLORER_PATH });

  // The REST bodies' named schemas, referenced by the route tables; then one OpenAPI document per surface, generated
  // by @fastify/swagger from the routes registered after it.
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  const documented = [...ROUTES, ...STREAM_ROUTES];
  const documentOptions = { bodyLimit: config.BODY_LIMIT_BYTES, anonymousRate: runtime.anonymousRate };
  await app.register(fastifySwagger, swaggerOptions('A', documented, documentOptions));
  await app.register(fastifySwagger, swaggerOptions('B', documented, documentOptions));
  registerRoutes(app, runtime, ROUTES);
  registerStreamRoutes(app, runtime, STREAM_ROUTES);
  registerApiDocs(app, { A: () => app.openapiA(), B: () => app.openapiB() });
  return app;
}
