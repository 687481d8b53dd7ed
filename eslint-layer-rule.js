import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dependency rule (ARCHITECTURE.md), enforced on every import:
 * - src/ never imports schema/, facades/ or workers/;
 * - src/platform imports no domain module; a domain module reaches another only through its index.ts, or,
 *   from a GraphQL file (*.resolver.ts, *.types.ts, graphql.ts), through its graphql.ts (resolvers and object
 *   types: index.ts loads no GraphQL, so that a worker importing a module does not pay for type-graphql);
 * - src/seo is pure: no I/O packages and nothing from src/ outside src/seo;
 * - facades/ imports schema/, facades/ and src/platform only; workers/ imports src/ only, never a graphql.ts;
 * - facades/web (the browser app) imports nothing outside itself: it speaks to the server over HTTP only,
 *   and nothing on the server imports it;
 * - the src/ modules are in one order (MODULE_ORDER): a module imports only modules below it, never one above
 *   (an upward import), so that no two modules can import each other, directly or around a ring.
 */
const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * The src/ modules from the lowest to the highest (ARCHITECTURE.md draws it). Each imports only modules listed
 * before it, type-only imports included; a new module takes the place its imports give it (after everything it
 * imports, before everything that imports it), and a module missing from the list is refused until it has one.
 * Derived from the imports: crawler (the crawl engine, login mechanics included) < projects (a project's settings,
 * its crawl login among them) < checks-catalog (the catalog and a project's check settings) < audits, which runs
 * crawls with the settings of the project and its checks; comparison, alerts and reports read audits.
 */
export const MODULE_ORDER = [
  'platform',
  'seo',
  'identity',
  'llm',
  'serp',
  'crawler',
  'projects',
  'checks-catalog',
  'technical',
  'tools',
  'keywords',
  'competitors',
  'fixes',
  'audits',
  // Scheduled audits (issue 49: schedules in one module): they start audits of projects, so above audits.
  'schedules',
  'comparison',
  'alerts',
  'reports',
  // The `seo` command (src/cli/, entered through src/cli.ts): it loads the modules a command needs, none loads it.
  'cli',
];
const RANK = new Map(MODULE_ORDER.map((name, i) => [name, i]));

/** Why an import from src/`from` to src/`to` breaks the module order, or null when `to` is below `from`. */
function orderViolation(from, to) {
  const missing = [from, to].find((m) => !RANK.has(m));
  if (missing !== undefined)
    return `src/${missing} has no place in the module order: add it to MODULE_ORDER (eslint-layer-rule.js)`;
  if (RANK.get(to) < RANK.get(from)) return null;
  return (
    `upward import: src/${from} may not import src/${to}, which is above it in the module order ` +
    `(${MODULE_ORDER.join(' < ')}); move the shared part down or turn the dependency around`
  );
}
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
    if (from.module && to.module) {
      const upward = orderViolation(from.module, to.module);
      if (upward) return upward;
    }
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
