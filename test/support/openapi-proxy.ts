import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { OpenAPIBackend, SetMatchType, type Document, type Operation } from 'openapi-backend';
import addFormatsModule from 'ajv-formats';
import { OPENAPI_PATHS, SURFACE_BASE, type DocumentSurface } from '../../facades/openapi/document.js';

/** What the proxy found about one response. */
export interface Verdict {
  method: string;
  url: string;
  status: number;
  /** The operation the request matched ("A getProjects"), or null for a request outside the REST surfaces. */
  operation: string | null;
  /** Every way the response differs from its document; empty when it conforms. */
  problems: string[];
}

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: object) => void;

const isRestPath = (path: string) =>
  path.startsWith('/api/') &&
  !path.startsWith('/api/auth/') &&
  !(Object.values(OPENAPI_PATHS) as string[]).includes(path);

/**
 * A validating proxy, in-process: it wraps the server's `inject`, so every request a test sends reaches the
 * real server through it, and every response to a REST path (/api/v1/*, /api/* but better-auth's and the two
 * documents) is checked against the surface's OpenAPI document with openapi-backend: the request must match a
 * documented operation, the status must be documented for it, the Content-Type must be one of the documented
 * media types, a JSON body must validate against the documented schema and the headers against theirs.
 * Other requests (GraphQL, sign-up, the docs) pass through unchecked and are reported as such.
 */
export class ValidatingProxy {
  readonly verdicts: Verdict[] = [];
  private readonly byResponse = new WeakMap<LightMyRequestResponse, Verdict>();
  private readonly backends = new Map<DocumentSurface, OpenAPIBackend>();

  private constructor() {}

  /** Loads both documents from the server and puts the proxy in front of `app.inject`. */
  static async install(app: FastifyInstance): Promise<ValidatingProxy> {
    const proxy = new ValidatingProxy();
    for (const surface of ['A', 'B'] as const) {
      const definition = (await app.inject({ method: 'GET', url: OPENAPI_PATHS[surface] })).json() as Document;
      // quick: openapi-backend 5 checks a definition against the OpenAPI 3.0 schema only, which refuses 3.1's
      // `examples` and type arrays (openapistack/openapi-backend#532); quick skips that check (the documents'
      // validity is Redocly's lint, test/integration/openapi.test.ts) and dereferences synchronously. strict: a
      // definition that cannot be dereferenced throws instead of warning.
      const backend = new OpenAPIBackend({
        definition,
        apiRoot: SURFACE_BASE[surface],
        quick: true,
        strict: true,
        validate: true,
        ajvOpts: { strict: false },
        // date-time, uri-reference and the other formats the documents use are checked, not ignored.
        customizeAjv: (ajv) => {
          addFormats(ajv);
          return ajv;
        },
      });
      await backend.init();
      proxy.backends.set(surface, backend);
    }
    const inject = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightMyRequestResponse>;
    const proxied = async (opts: InjectOptions | string) => {
      const res = await inject(opts);
      const request: InjectOptions = typeof opts === 'string' ? { method: 'GET', url: opts } : opts;
      proxy.record(String(request.method ?? 'GET'), String(request.url ?? request.path ?? '/'), res);
      return res;
    };
    (app as unknown as { inject: typeof proxied }).inject = proxied;
    return proxy;
  }

  /** The verdict on a response the proxy saw (undefined: the response did not go through it). */
  verdict(res: LightMyRequestResponse): Verdict | undefined {
    return this.byResponse.get(res);
  }

  /** Checks one response of a request against the documents, records and returns the verdict. */
  record(method: string, url: string, res: LightMyRequestResponse): Verdict {
    const verdict = this.check(method.toUpperCase(), url, res);
    this.verdicts.push(verdict);
    this.byResponse.set(res, verdict);
    return verdict;
  }

  check(method: string, url: string, res: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>): Verdict {
    const parsed = new URL(url, 'http://proxy.invalid');
    const verdict: Verdict = { method, url, status: res.statusCode, operation: null, problems: [] };
    // The path as the server's router sees it (percent-encoding and all).
    const path = url.split('?')[0];
    if (!isRestPath(parsed.pathname)) return verdict;
    const surface: DocumentSurface = path.startsWith(`${SURFACE_BASE.A}/`) ? 'A' : 'B';
    const backend = this.backends.get(surface)!;
    const operation = backend.matchOperation({
      method,
      path,
      headers: {},
      query: Object.fromEntries(parsed.searchParams),
    }) as Operation | undefined;
    if (!operation) {
      verdict.problems.push(`no operation of document ${surface} for ${method} ${path}`);
      return verdict;
    }
    verdict.operation = `${surface} ${operation.operationId}`;
    const response = (operation.responses as Record<string, any>)[String(res.statusCode)];
    if (!response) {
      verdict.problems.push(`status ${res.statusCode} is not documented for ${verdict.operation}`);
      return verdict;
    }
    const mediaType = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const content = (response.content ?? {}) as Record<string, { schema?: { type?: string } }>;
    if (!(mediaType in content)) {
      verdict.problems.push(
        `Content-Type ${mediaType || '(none)'} is not documented ` +
          `for ${verdict.operation} ${res.statusCode} (${Object.keys(content).join(', ')})`,
      );
      return verdict;
    }
    if (mediaType === 'application/json') {
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        verdict.problems.push('the body is not JSON');
        return verdict;
      }
      const result = backend.validateResponse(body, operation, res.statusCode);
      for (const e of result.errors ?? [])
        verdict.problems.push(`body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    } else if (content[mediaType].schema?.type === 'string' && typeof res.body !== 'string') {
      verdict.problems.push(`the ${mediaType} body is not text`);
    }
    // The documented headers are optional (none is `required`); those present must match their schemas.
    const headers = backend.validateResponseHeaders(res.headers, operation, {
      statusCode: res.statusCode,
      setMatchType: SetMatchType.Any,
    });
    for (const e of headers.errors ?? []) verdict.problems.push(`header ${e.instancePath} ${e.message}`);
    return verdict;
  }
}
