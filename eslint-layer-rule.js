import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dependency rule of DESIGN §2, enforced on every import:
 * - src/ never imports schema/, facades/ or workers/;
 * - src/platform imports no domain module; a domain module reaches another only through its index.ts, or,
 *   from a GraphQL file (*.resolver.ts, *.types.ts, graphql.ts), through its graphql.ts (resolvers and object
 *   types: index.ts loads no GraphQL, so that a worker importing a module does not pay for type-graphql);
 * - src/seo is pure: no I/O packages and nothing from src/ outside src/seo;
 * - facades/ imports schema/, facades/ and src/platform only; workers/ imports src/ only, never a graphql.ts;
 * - facades/web (the browser app) imports nothing outside itself: it speaks to the server over HTTP only,
 *   and nothing on the server imports it.
 */
const ROOT = dirname(fileURLToPath(import.meta.url));
const IO_PACKAGES = new RegExp(
  String.raw`^(undici|pg|ioredis|bullmq|@mikro-orm\/.*|node:(http|https|net|` +
    String.raw`dns|fs|fs\/promises|child_process)|(http|https|net|dns|fs|child_process))$`,
);

function where(abs) {
  const parts = relative(ROOT, abs).split(sep);
  return {
    top: parts[0],
    module: parts[0] === 'src' && parts.length > 2 ? parts[1] : null,
    rest: parts.slice(2).join('/'),
    web: parts[0] === 'facades' && parts[1] === 'web',
  };
}

const isGraphqlFace = (rest) => /^graphql\.(js|ts)$/.test(rest);
const isGraphqlFile = (file) => /(\.resolver|\.types|\/graphql)\.ts$/.test(file);

function violation(fromFile, spec) {
  const from = where(fromFile);
  if (!spec.startsWith('.')) {
    if (from.top === 'src' && from.module === 'seo' && IO_PACKAGES.test(spec))
      return `src/seo is pure analysis: it may not import "${spec}"`;
    return null;
  }
  const to = where(resolve(dirname(fromFile), spec));
  if (from.web !== to.web) {
    return from.web
      ? 'facades/web is the browser app: it imports only its own files (the server is reached over HTTP)'
      : 'server code may not import the browser app (facades/web)';
  }
  if (from.web) return null;
  if (from.top === 'src') {
    if (['schema', 'facades', 'workers'].includes(to.top)) return `src/ may not import ${to.top}/`;
    if (to.top !== 'src' || from.module === to.module) return null;
    if (from.module === 'seo') return 'src/seo is pure analysis: it may not import other src/ modules';
    if (from.module === 'platform') return `src/platform may not import a domain module (src/${to.module ?? ''})`;
    if (from.module && !to.module) return 'a domain module may not import the composition files at the src/ root';
    if (to.module && to.module !== 'platform' && isGraphqlFace(to.rest)) {
      return isGraphqlFile(fromFile)
        ? null
        : `only a GraphQL file (*.resolver.ts, *.types.ts, graphql.ts) may import src/${to.module}/graphql.ts`;
    }
    if (to.module && to.module !== 'platform' && !/(^|\/)index\.(js|ts)$/.test(to.rest)) {
      return `reach src/${to.module} only through its index.ts (not ${to.rest})`;
    }
    return null;
  }
  if (from.top === 'facades') {
    if (to.top === 'workers') return 'facades/ may not import workers/';
    if (to.top === 'src' && to.module !== 'platform')
      return 'facades/ may import src/platform only (services and entities are reached through GraphQL)';
    return null;
  }
  if (from.top === 'workers' && (to.top === 'schema' || to.top === 'facades'))
    return `workers/ may not import ${to.top}/`;
  if (from.top === 'workers' && to.module && isGraphqlFace(to.rest))
    return "workers/ run no GraphQL: import the module's index.ts";
  return null;
}

export const layerPlugin = {
  rules: {
    layers: {
      meta: { type: 'problem', schema: [], messages: { layer: 'Layer rule: {{why}}' } },
      create(context) {
        const check = (node) => {
          const spec = node.source && node.source.value;
          if (typeof spec !== 'string') return;
          const why = violation(context.filename, spec);
          if (why) context.report({ node: node.source, messageId: 'layer', data: { why } });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};
