import { compile as compileCss, selectAll, selectOne } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import * as DomUtils from 'domutils';
import { parseDocument } from 'htmlparser2';
import {
  EXTRACTION_LIMITS,
  isSearch,
  type ExtractionValue,
  type ExtractorSpec,
  type PageExtraction,
} from './custom-extractor.types.js';
import { regexHazard } from './regex-hazard.js';
import { compileXPath, stringValue, type XNode } from './xpath.js';

/**
 * How a page is tokenized into the tree CSS and XPath extractors read: the options extractPageFacts tokenizes it
 * with, so that the tree it builds on the way (documentBuilder) is the one parseDocument(html, TREE_OPTIONS) gives.
 */
export const TREE_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true } as const;

/** HTML semantics (case-insensitive names); css-select walks domhandler trees with its own default adapter. */
const CSS_OPTIONS = { xmlMode: false };

/** Flags of a regex extractor or search: `g` to list every match, `i` when asked, `s` so `.` crosses lines. */
const regexFlags = (spec: Pick<ExtractorSpec, 'ignoreCase'>): string => `gs${spec.ignoreCase ? 'i' : ''}`;

/**
 * Why an extractor cannot be evaluated (a selector, XPath or regex that does not compile, an attribute missing),
 * or null: refused when it is saved, so an audit never meets one.
 */
export function extractorProblem(spec: ExtractorSpec): string | null {
  const expression = spec.expression.trim();
  if (!expression) return 'The expression is empty';
  if (spec.expression.length > EXTRACTION_LIMITS.expressionChars)
    return `The expression is longer than ${EXTRACTION_LIMITS.expressionChars} characters`;
  if ((spec.kind === 'CSS' || spec.kind === 'XPATH') && spec.output === 'ATTRIBUTE' && !spec.attribute?.trim())
    return 'Name the attribute to read';
  try {
    if (spec.kind === 'CSS') compileCss(expression, CSS_OPTIONS);
    else if (spec.kind === 'XPATH') compileXPath(expression);
    else if (spec.kind === 'REGEX' || spec.regex) new RegExp(spec.expression, regexFlags(spec));
  } catch (err) {
    const what = spec.kind === 'CSS' ? 'CSS selector' : spec.kind === 'XPATH' ? 'XPath' : 'regular expression';
    return `Invalid ${what}: ${err instanceof Error ? err.message : String(err)}`;
  }
  // A regex cannot be interrupted where it runs: one that can backtrack catastrophically would stall its thread.
  if (spec.kind === 'REGEX' || (isSearch(spec.kind) && spec.regex)) {
    const hazard = regexHazard(spec.expression, regexFlags(spec));
    if (hazard) return `Unsafe regular expression: ${hazard}`;
  }
  return null;
}

const clip = (value: string): string =>
  value.length > EXTRACTION_LIMITS.valueChars ? value.slice(0, EXTRACTION_LIMITS.valueChars) : value;
const tidy = (text: string): string => clip(text.replace(/\s+/g, ' ').trim());

function nodeOutput(node: XNode, spec: ExtractorSpec): string | null {
  if (node.type === 'attribute') return clip(node.value);
  if (spec.output === 'ATTRIBUTE') {
    const attribs = (node as Element).attribs as Record<string, string> | undefined;
    const value = attribs?.[spec.attribute!.trim().toLowerCase()];
    return value === undefined ? null : clip(value);
  }
  if (spec.output === 'INNER_HTML' && node.type !== 'text' && node.type !== 'comment')
    return clip(DomUtils.getInnerHTML(node).trim());
  return tidy(node.type === 'text' || node.type === 'comment' ? stringValue(node) : DomUtils.textContent(node));
}

/** How one page's extractors are run. */
export interface EvaluateOptions {
  /** The page's time budget (EXTRACTION_LIMITS.pageBudgetMs when absent), checked before each extractor. */
  budgetMs?: number;
  /** The clock the budget is read on (performance.now). */
  now?: () => number;
  /**
   * The page's tree when the caller built it while tokenizing the page anyway (extractPageFacts does, through
   * documentBuilder()); without it, a tree-needing extractor parses the page here.
   */
  document?: Document;
  /**
   * The index (in the specs) of the extractor a hard stop interrupted on an earlier attempt at this page: it and
   * every extractor after it are `'timeout'` without running (src/crawler/page-facts-pool.ts).
   */
  timedOutFrom?: number;
  /** Told the index (in the specs) of each extractor as it starts: what a hard stop reads to know where it was. */
  onExtractor?: (index: number) => void;
}

/** Compiled extractors for one project: compile once, evaluate on every page. */
export interface CompiledExtraction {
  /** Whether any extractor needs the document tree (CSS, XPath); regexes and searches read the HTML text. */
  needsTree: boolean;
  /** The page's values. */
  evaluate(html: string, options?: EvaluateOptions): PageExtraction;
}

type Runner = (html: string, tree: () => Document) => ExtractionValue;

function runner(spec: ExtractorSpec): Runner {
  const limit = spec.match === 'FIRST' ? 1 : EXTRACTION_LIMITS.valuesPerExtractor;
  if (isSearch(spec.kind)) {
    const re = spec.regex ? new RegExp(spec.expression, regexFlags(spec).replace('g', '')) : null;
    const needle = spec.ignoreCase ? spec.expression.toLowerCase() : spec.expression;
    return (html) => {
      const found = re ? re.test(html) : (spec.ignoreCase ? html.toLowerCase() : html).includes(needle);
      return spec.kind === 'CONTAINS' ? found : !found;
    };
  }
  if (spec.kind === 'REGEX') {
    const re = new RegExp(spec.expression, regexFlags(spec));
    return (html) => {
      const values: string[] = [];
      re.lastIndex = 0;
      for (const m of html.matchAll(re)) {
        values.push(clip(m[1] ?? m[0]));
        if (values.length >= limit) break;
      }
      return values;
    };
  }
  if (spec.kind === 'CSS') {
    const query = compileCss<AnyNode, Element>(spec.expression.trim(), CSS_OPTIONS);
    return (_html, tree) => {
      const nodes =
        limit === 1
          ? [selectOne<AnyNode, Element>(query, tree(), CSS_OPTIONS)].filter((n): n is Element => n !== null)
          : selectAll<AnyNode, Element>(query, tree(), CSS_OPTIONS);
      return collect(nodes, spec, limit);
    };
  }
  const xpath = compileXPath(spec.expression.trim());
  return (_html, tree) => {
    const result = xpath(tree());
    if (!Array.isArray(result)) return [tidy(String(result))];
    return collect(result, spec, limit);
  };
}

function collect(nodes: readonly XNode[], spec: ExtractorSpec, limit: number): string[] {
  const values: string[] = [];
  for (const node of nodes) {
    const value = nodeOutput(node, spec);
    if (value !== null) values.push(value);
    if (values.length >= limit) break;
  }
  return values;
}

/**
 * Compiles a project's extractors (each already checked by extractorProblem; one that still fails is left out).
 * Evaluation builds the document tree only when a CSS or XPath extractor asks for it, and stops at the budget:
 * extractors not reached in time are `'timeout'`. The budget is checked between extractors only: one extractor
 * that runs long is stopped by the thread pool that runs it (src/crawler/page-facts-pool.ts), never here.
 */
export function compileExtraction(specs: readonly ExtractorSpec[]): CompiledExtraction {
  const runners: { key: string; index: number; run: Runner; regex: boolean }[] = [];
  specs.forEach((spec, index) => {
    if (extractorProblem(spec) !== null) return;
    runners.push({
      key: spec.key,
      index,
      run: runner(spec),
      regex: spec.kind === 'REGEX' || (isSearch(spec.kind) && spec.regex),
    });
  });
  const needsTree = specs.some((s) => s.kind === 'CSS' || s.kind === 'XPATH');
  return {
    needsTree,
    evaluate(html, options = {}) {
      const { budgetMs = EXTRACTION_LIMITS.pageBudgetMs, now = () => performance.now(), onExtractor } = options;
      const timedOutFrom = options.timedOutFrom ?? Number.POSITIVE_INFINITY;
      const deadline = now() + budgetMs;
      let tree: Document | null = options.document ?? null;
      const treeOf = () => (tree ??= parseDocument(html, TREE_OPTIONS));
      // Regexes (and regex searches) read at most the first regexTextChars of the page: a bound on their cost.
      const head =
        html.length > EXTRACTION_LIMITS.regexTextChars ? html.slice(0, EXTRACTION_LIMITS.regexTextChars) : html;
      const out: PageExtraction = {};
      for (const { key, index, run, regex } of runners) {
        if (index >= timedOutFrom || now() > deadline) {
          out[key] = 'timeout';
          continue;
        }
        onExtractor?.(index);
        out[key] = run(regex ? head : html, treeOf);
      }
      return out;
    },
  };
}
