import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPENAPI_PATHS, buildOpenApiDocument, type DocumentSurface, type DocumentedRoute, type OpenApiOptions } from '../openapi/document.js';
import { AssetStore, fileIn } from './static-assets.js';
import { sendRefusal } from '../error-translators.js';
import {
  DOCS_ASSET_BASE,
  DOCS_CSS,
  PAGE_HEADERS,
  docsInitScript,
  docsPage,
  type DocumentLink,
} from './pages.js';

export interface ApiDocsOptions extends OpenApiOptions {
  routes: readonly DocumentedRoute[];
}

const DOCUMENTS: Record<DocumentSurface, Omit<DocumentLink, 'url'>> = {
  A: { name: 'Surface A — /api/v1 (API key)', description: 'OpenAPI 3.1 document of the bearer-key API' },
  B: { name: 'Surface B — /api (session cookie) and free tools', description: 'OpenAPI 3.1 document of the session API and the public tools' },
};

const ASSET_HEADERS = { 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin', 'cache-control': 'public, max-age=3600' };

function assetStore(documents: DocumentLink[]): AssetStore {
  const js = 'application/javascript; charset=utf-8';
  const css = 'text/css; charset=utf-8';
  return new AssetStore({
    'swagger-ui.css': { type: css, file: fileIn('swagger-ui-dist', 'swagger-ui.css') },
    'swagger-ui-bundle.js': { type: js, file: fileIn('swagger-ui-dist', 'swagger-ui-bundle.js') },
    'swagger-ui-standalone-preset.js': { type: js, file: fileIn('swagger-ui-dist', 'swagger-ui-standalone-preset.js') },
    'favicon-32x32.png': { type: 'image/png', file: fileIn('swagger-ui-dist', 'favicon-32x32.png') },
    'docs.css': { type: css, content: DOCS_CSS },
    'docs-init.js': { type: js, content: docsInitScript(documents) },
  });
}

const acceptsGzip = (request: FastifyRequest) => /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** JSON or asset bytes with an ETag; 304 when the client has them, gzip when it accepts it. */
function sendCached(request: FastifyRequest, reply: FastifyReply, asset: { type: string; etag: string; raw: Buffer; gzip: Buffer | null }) {
  reply.header('content-type', asset.type).header('etag', asset.etag);
  if (asset.gzip) reply.header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  if (asset.gzip && acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(asset.gzip);
  return reply.send(asset.raw);
}

/**
 * GET /api/v1/openapi.json and /api/openapi.json (generated once from the route table), the Swagger UI
 * page at /docs, all from local files: the docs work offline.
 */
export function registerApiDocs(app: FastifyInstance, options: ApiDocsOptions): void {
  const documents: DocumentLink[] = (['A', 'B'] as const).map((s) => ({ ...DOCUMENTS[s], url: OPENAPI_PATHS[s] }));
  const json = new AssetStore(
    Object.fromEntries(
      (['A', 'B'] as const).map((surface) => [
        surface,
        { type: 'application/json; charset=utf-8', content: JSON.stringify(buildOpenApiDocument(surface, options.routes, options)) },
      ]),
    ),
  );
  for (const surface of ['A', 'B'] as const) {
    app.get(OPENAPI_PATHS[surface], async (request, reply) => {
      // Public documents: other origins (API tools, editors) may read them.
      reply.header('access-control-allow-origin', '*').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
      return sendCached(request, reply, await json.get(surface));
    });
  }

  const assets = assetStore(documents);
  const docs = docsPage(documents);
  app.get('/docs', async (_request, reply) => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(docs));
  app.get('/docs/', async (_request, reply) => reply.redirect('/docs', 301));
  app.get<{ Params: { name: string } }>(`${DOCS_ASSET_BASE}/:name`, async (request, reply) => {
    const { name } = request.params;
    if (!assets.has(name)) return sendRefusal(reply, { code: 'NOT_FOUND', message: `Asset ${name} not found` });
    reply.headers(ASSET_HEADERS);
    return sendCached(request, reply, await assets.get(name));
  });
}
