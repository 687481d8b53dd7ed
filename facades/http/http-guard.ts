import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Channel, Principal } from '../../src/platform/context.js';
import type { DomainApi } from '../../schema/domain-runtime.js';
import { sendRefusal, type Refusal } from './error-translators.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal | null;
  }
}

/** A: bearer key; B: session cookie; TOOLS: optional session, else per-IP; GRAPHQL: either, or anonymous. */
export type Surface = 'A' | 'B' | 'TOOLS' | 'GRAPHQL';

const CHANNEL: Record<Surface, Channel> = { A: 'SURFACE_A', B: 'SURFACE_B', TOOLS: 'SURFACE_B', GRAPHQL: 'GRAPHQL' };
const UNAUTHORIZED: Record<'A' | 'B', string> = {
  A: 'Invalid or missing API key. Send Authorization: Bearer <API_KEY>.',
  B: 'Unauthorized. Please sign in.',
};
export type RateLimitResult = Awaited<ReturnType<DomainApi['rateLimit']>>;

/** What admitting a request needs of the domain: who the caller is, and their rate limit. */
export type Admission = Pick<DomainApi, 'config' | 'authenticate' | 'rateLimit' | 'rateLimitFor' | 'anonymousRate'>;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The request's context for the schema's resolvers: the principal the guard admitted, the request id, the IP, and
 * (given the reply) a signal aborted when the client goes away before its answer is sent.
 */
export const requestContext = (
  runtime: Pick<DomainApi, 'createContext'>,
  request: FastifyRequest,
  reply?: FastifyReply,
) =>
  runtime.createContext({
    principal: request.principal ?? null,
    requestId: String(request.id),
    ip: request.ip,
    signal: reply && (() => clientGoneSignal(reply)),
  });

/**
 * Aborted when the response's connection closes before the response was finished (the client went away). The
 * request's own 'close' does not say so: Node emits it once the body is read.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const response = reply.raw;
  // One per response: a streamed export runs an operation (a context) per piece.
  const made = clientGone.get(response);
  if (made) return made;
  const controller = new AbortController();
  clientGone.set(response, controller.signal);
  if (response.writableFinished) return controller.signal;
  if (response.destroyed) controller.abort();
  else
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
  return controller.signal;
}
const clientGone = new WeakMap<object, AbortSignal>();

export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return match ? match[1] : null;
}

export function toWebHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  return headers;
}

export function setRateHeaders(reply: FastifyReply, r: RateLimitResult): void {
  reply.header('ratelimit-limit', String(r.limit));
  reply.header('ratelimit-remaining', String(r.remaining));
  reply.header('ratelimit-reset', String(r.resetSeconds));
}

/** Refusals held right now in this process; past this many, a refusal is answered at once. */
const MAX_HELD_REFUSALS = 1_000;
let heldRefusals = 0;

/**
 * Holds a rate refusal until the caller could be served, RATE_LIMIT_HOLD_MS at most (see the setting). Holding
 * costs a timer, not the thread; the cap bounds the sockets a flood can keep open through it.
 */
export async function holdRefusal(config: Admission['config'], rate: RateLimitResult): Promise<void> {
  const ms = Math.min(config.RATE_LIMIT_HOLD_MS, rate.retryInMs ?? rate.resetSeconds * 1000);
  if (ms <= 0 || heldRefusals >= MAX_HELD_REFUSALS) return;
  heldRefusals += 1;
  try {
    await new Promise((resolve) => setTimeout(resolve, ms));
  } finally {
    heldRefusals -= 1;
  }
}

/** Why a request was limited, and when to come back. */
export function rateLimitMessage(r: RateLimitResult): string {
  return r.burst
    ? `Too many requests at once: ${r.burst} back to back, then ${r.limit} per minute spread evenly. ` +
        `Retry in ${r.resetSeconds}s.`
    : `Rate limit exceeded: ${r.limit} requests per minute. Retry in ${r.resetSeconds}s.`;
}

/** Every limited response carries the rate headers; a 429 adds Retry-After (set by the translator). */
export function tooMany(reply: FastifyReply, r: RateLimitResult, message?: string): Refusal {
  setRateHeaders(reply, r);
  return {
    code: 'RATE_LIMITED',
    message: message ?? rateLimitMessage(r),
    retryAfterSeconds: r.resetSeconds,
  };
}

/** Cookie-authenticated state changes must come from a trusted origin (CSRF). */
function originAllowed(runtime: Admission, request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.origin;
  if (origin !== undefined) return runtime.config.trustedOrigins.includes(origin);
  return request.headers['sec-fetch-site'] !== 'cross-site';
}

/**
 * Resolves the request's principal onto it and counts its rate limit: the refusal to send (UNAUTHENTICATED,
 * FORBIDDEN, RATE_LIMITED; the rate headers already set on the reply, the transport's translator sends the rest), or
 * null when the request may go on. It returns a plain object, never the
 * reply: a Fastify reply is a thenable, so an async function returning it resolves to undefined once it is sent,
 * and the caller would go on and answer a second time. One async frame: REST routes call it first thing on
 * every request, and a wrapper around it (or a `.then` on it) would be one more promise each time.
 */
export async function admit(
  runtime: Admission,
  surface: Surface,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Refusal | null> {
  const channel = CHANNEL[surface];
  const bearer = surface === 'B' || surface === 'TOOLS' ? null : bearerToken(request.headers.authorization);
  const hasCookie = !!request.headers.cookie;
  let principal: Principal | null = null;
  if (bearer) principal = await runtime.authenticate({ bearer }, channel);
  else if (hasCookie && surface !== 'A')
    principal = await runtime.authenticate(
      { session: { cookie: request.headers.cookie!, headers: () => toWebHeaders(request) } },
      channel,
    );

  const presentedCredentials = !!bearer || (hasCookie && surface !== 'A') || !!request.headers.authorization;
  const required = surface === 'A' || surface === 'B';
  if (!principal && (required || presentedCredentials)) {
    // Failed authentication is limited per client IP, so keys and sessions cannot be guessed at speed.
    const failures = await runtime.rateLimit(`ip:${request.ip}:authfail`, runtime.config.AUTH_FAILURES_PER_MINUTE);
    if (!failures.allowed) {
      await holdRefusal(runtime.config, failures);
      return tooMany(reply, failures);
    }
    if (required || bearer) {
      const key = surface === 'A' ? 'A' : 'B';
      return { code: 'UNAUTHENTICATED', message: UNAUTHORIZED[surface === 'GRAPHQL' ? 'A' : key] };
    }
  }

  if (principal?.via === 'SESSION' && !originAllowed(runtime, request)) {
    return { code: 'FORBIDDEN', message: 'Cross-origin request refused: origin is not trusted.' };
  }

  const { bucket, limit, burst } = principal
    ? runtime.rateLimitFor(principal)
    : { bucket: `ip:${request.ip}:anon`, limit: runtime.anonymousRate, burst: undefined };
  const rate = await runtime.rateLimit(bucket, limit, burst);
  if (!rate.allowed) {
    await holdRefusal(runtime.config, rate);
    return tooMany(reply, rate);
  }
  setRateHeaders(reply, rate);
  request.principal = principal;
  return null;
}

export function guardFor(runtime: Admission, surface: Surface): preHandlerAsyncHookHandler {
  return async function guard(request, reply) {
    const refused = await admit(runtime, surface, request, reply);
    if (refused) return sendRefusal(reply, refused);
  };
}
