import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The web app's feature rule (issue 49): a feature (facades/web/src/features/<name>/) is reached from outside only
 * through its index.ts, shared UI lives in components/ and lib/ (which import no feature), and no two features
 * import each other, directly or around a loop. Type-only imports count: a cycle of types is still a cycle.
 */
const FEATURES = `${sep}facades${sep}web${sep}src${sep}features${sep}`;
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const SOURCE = /\.(ts|tsx)$/;

/** Where a file sits in the web app: its features directory, and its feature and the path inside it, if any. */
function place(file) {
  const at = file.indexOf(FEATURES);
  if (at >= 0) {
    const root = file.slice(0, at + FEATURES.length - 1);
    const [feature, ...rest] = relative(root, file).split(sep);
    return { root, feature, inside: rest.join('/') };
  }
  const src = `${sep}facades${sep}web${sep}src${sep}`;
  const s = file.indexOf(src);
  return s >= 0 ? { root: file.slice(0, s + src.length) + 'features', feature: null, inside: null } : null;
}

const isIndex = (inside) => /^index(\.(ts|tsx|js))?$/.test(inside) || inside === '';

/**
 * The features each feature imports, read from disk once per lint process and features directory (an editor's
 * long-lived ESLint sees a new edge after a restart; `npm run lint` reads it fresh).
 */
const graphs = new Map();
function featureGraph(root) {
  let graph = graphs.get(root);
  if (graph) return graph;
  graph = new Map();
  let names;
  try {
    names = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
  } catch {
    names = [];
  }
  for (const dir of names) {
    const edges = new Set();
    const base = join(root, dir.name);
    for (const file of readdirSync(base, { recursive: true, encoding: 'utf8' })) {
      if (!SOURCE.test(file)) continue;
      const path = join(base, file);
      for (const spec of importsOf(readFileSync(path, 'utf8'))) {
        const to = targetFeature(path, spec, root);
        if (to && to !== dir.name) edges.add(to);
      }
    }
    graph.set(dir.name, edges);
  }
  graphs.set(root, graph);
  return graph;
}

function importsOf(text) {
  const specs = [];
  for (const m of text.matchAll(IMPORT)) specs.push(m[1] ?? m[2]);
  return specs;
}

function targetFeature(fromFile, spec, root) {
  if (!spec.startsWith('.')) return null;
  const rel = relative(root, resolve(dirname(fromFile), spec));
  if (rel.startsWith('..') || rel === '') return null;
  return rel.split(sep)[0];
}

/** A path of features from `start` back to `goal`, if the graph has one. */
function pathBetween(graph, start, goal) {
  const seen = new Set();
  const walk = (at, trail) => {
    if (at === goal) return trail;
    if (seen.has(at)) return null;
    seen.add(at);
    for (const next of graph.get(at) ?? []) {
      const found = walk(next, [...trail, next]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

export function webFeatureViolation(fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const from = place(fromFile);
  if (!from) return null;
  const target = resolve(dirname(fromFile), spec);
  const rel = relative(from.root, target);
  if (rel.startsWith('..') || rel === '') return null;
  const [feature, ...rest] = rel.split(sep);
  if (feature === from.feature) return null;
  if (from.feature === null && /^(components|lib)[\\/]/.test(relative(dirname(from.root), fromFile))) {
    return `components/ and lib/ are shared by the features: they may not import features/${feature}`;
  }
  if (!isIndex(rest.join('/'))) return `reach features/${feature} only through its index.ts (not ${rest.join('/')})`;
  if (from.feature === null) return null;
  const loop = pathBetween(featureGraph(from.root), feature, from.feature);
  return loop ? `features import each other in a cycle: ${[from.feature, ...loop].join(' -> ')}` : null;
}

export const webFeaturesPlugin = {
  rules: {
    features: {
      meta: {
        type: 'problem',
        schema: [],
        messages: { feature: 'Web features: {{why}}' },
      },
      create(context) {
        const check = (node) => {
          const spec = node.source && node.source.value;
          if (typeof spec !== 'string') return;
          const why = webFeatureViolation(context.filename, spec);
          if (why) context.report({ node: node.source, messageId: 'feature', data: { why } });
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
