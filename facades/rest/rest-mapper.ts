import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GraphQLError } from 'graphql';
import type { DomainApi } from '../../schema/domain-runtime.js';
import { admit, guardFor, requestContext, type Admission, type Surface } from '../http/http-guard.js';
import { sendError, sendRefusal } from '../http/error-translators.js';

/** What the REST mapper uses: admission, the schema its operations compile against, request contexts. */
type RestRuntime = Admission & Pick<DomainApi, 'schema' | 'createContext'>;

export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** One REST endpoint = a GraphQL operation + how to read its variables + how to reshape its data. */
export interface RestRoute<TData = any, TVars = any> {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  surface: Surface;
  operation: TypedDocumentNode<TData, TVars>;
  variables?: (input: RouteInput) => TVars;
  map: (data: TData) => unknown;
  /** Success status; Surface B always answers 200 (spec §7). */
  status?: number;
  schema?: FastifySchema;
  /** Per-route request body limit in bytes (defaults to BODY_LIMIT_BYTES). */
  bodyLimit?: number;
  summary: string;
}

export const defineRoute = <TData, TVars>(route: RestRoute<TData, TVars>): RestRoute<TData, TVars> => route;

/** Runs a GraphQL operation in-process for the current request; domain errors are thrown as DomainError. */
export type RunOperation = <TData, TVars>(
  operation: TypedDocumentNode<TData, TVars>,
  variables: TVars,
) => Promise<TData>;

/**
 * A route whose body is produced over several operations (exports streamed page by page). The first
 * operation runs before any byte is sent, so access errors still become proper statuses.
 */
export interface StreamRoute {
  method: 'GET';
  url: string;
  surface: Surface;
  schema?: FastifySchema;
  summary: string;
  respond(input: RouteInput, run: RunOperation, reply: FastifyReply): Promise<unknown>;
}

function compile(runtime: RestRuntime, operation: TypedDocumentNode<unknown, unknown>, label: string): CompiledQuery {
  const compiled = compileQuery(runtime.schema, operation as never);
  if (!isCompiledQuery(compiled)) {
    throw new Error(`${label}: operation does not compile: ${compiled.errors?.map((e) => e.message).join('; ')}`);
  }
  return compiled;
}

const routeInput = (request: FastifyRequest): RouteInput => ({
  params: (request.params ?? {}) as Record<string, string>,
  query: (request.query ?? {}) as Record<string, unknown>,
  body: request.body,
});

/** Operations compiled on first use and kept (streaming routes run several per request). */
function operationRunner(runtime: RestRuntime) {
  const cache = new Map<unknown, CompiledQuery>();
  return (request: FastifyRequest, reply: FastifyReply): RunOperation =>
    async (operation, variables) => {
      let compiled = cache.get(operation);
      if (!compiled) {
        compiled = compile(runtime, operation as TypedDocumentNode<unknown, unknown>, 'Streaming route');
        cache.set(operation, compiled);
      }
      const result = await compiled.query(
        undefined,
        requestContext(runtime, request, reply),
        variables as Record<string, unknown>,
      );
      if (result.errors?.length) {
        const original = (result.errors[0] as GraphQLError).originalError;
        throw original ?? result.errors[0];
      }
      return result.data as never;
    };
}

export function registerStreamRoutes(app: FastifyInstance, runtime: RestRuntime, routes: StreamRoute[]): void {
  const runner = operationRunner(runtime);
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      preHandler: guardFor(runtime, route.surface),
      handler: async (request, reply) => {
        try {
          return await route.respond(routeInput(request), runner(request, reply), reply);
        } catch (err) {
          if (reply.sent || reply.raw.headersSent) {
            request.log.error({ err }, 'stream failed after headers were sent');
            reply.raw.destroy();
            return reply;
          }
          return sendError(reply, err);
        }
      },
    });
  }
}

const NO_VARIABLES: Record<string, unknown> = Object.freeze({});

/** Registers the route table; each operation is compiled once (graphql-jit) and run in-process per request. */
export function registerRoutes(app: FastifyInstance, runtime: RestRuntime, routes: RestRoute[]): void {
  for (const route of routes) {
    const compiled = compile(runtime, route.operation, `Route ${route.method} ${route.url}`);
    app.route({
      method: route.method,
      url: route.url,
      schema: route.schema,
      bodyLimit: route.bodyLimit,
      // The guard runs first thing in the handler (after validation, as a preHandler would): on this hot path
      // a hook costs Fastify's hook runner and a promise more per request.
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const refused = await admit(runtime, route.surface, request, reply);
        if (refused) return sendRefusal(reply, refused);
        const variables = (route.variables ? route.variables(routeInput(request)) : NO_VARIABLES) as Record<
          string,
          unknown
        >;
        const result = await compiled.query(undefined, requestContext(runtime, request, reply), variables);
        if (result.errors?.length) return sendError(reply, result.errors[0]);
        return reply.code(route.status ?? 200).send(route.map(result.data as never));
      },
    });
  }
}
