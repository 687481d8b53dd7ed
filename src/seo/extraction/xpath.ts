import type { AnyNode, Element } from 'domhandler';

/*
 * XPath 1.0 over an htmlparser2 (domhandler) tree: location paths with every forward and reverse axis the HTML
 * tree has (child, descendant, descendant-or-self, self, parent, ancestor, ancestor-or-self, following-sibling,
 * preceding-sibling, attribute), name tests, `*`, `text()`, `node()`, `comment()`, predicates (positions and
 * expressions), unions, the operators or/and/=/!=/</<=/>/>=/+/-, and the functions people write in extractors.
 * No package in the dependency tree evaluates XPath over domhandler nodes, hence this module.
 */

/** An attribute as an XPath node (domhandler keeps attributes as a plain record on the element). */
export interface AttributeNode {
  type: 'attribute';
  name: string;
  value: string;
  parent: Element;
}
export type XNode = AnyNode | AttributeNode;
type Value = XNode[] | string | number | boolean;

export class XPathSyntaxError extends Error {}

type Token = { t: 'name' | 'str' | 'num' | 'op'; v: string };

const TOKEN = new RegExp(
  [
    String.raw`\s*(?:(\/\/|::|\.\.|!=|<=|>=|[/()[\]@,|=<>*+.-])`,
    String.raw`("[^"]*"|'[^']*')`,
    String.raw`(\d+(?:\.\d*)?|\.\d+)`,
    String.raw`([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?))`,
  ].join('|'),
  'y',
);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let index = 0;
  while (index < source.length) {
    if (/^\s*$/.test(source.slice(index))) break;
    TOKEN.lastIndex = index;
    const m = TOKEN.exec(source);
    if (!m) throw new XPathSyntaxError(`unexpected character at ${index + 1}: "${source.slice(index, index + 10)}"`);
    index = TOKEN.lastIndex;
    if (m[1]) tokens.push({ t: 'op', v: m[1] });
    else if (m[2]) tokens.push({ t: 'str', v: m[2].slice(1, -1) });
    else if (m[3]) tokens.push({ t: 'num', v: m[3] });
    else tokens.push({ t: 'name', v: m[4] });
  }
  return tokens;
}

type Expr =
  | { k: 'path'; absolute: boolean; steps: Step[]; from?: Expr; filters?: Expr[] }
  | { k: 'bin'; op: string; a: Expr; b: Expr }
  | { k: 'neg'; a: Expr }
  | { k: 'lit'; v: string | number }
  | { k: 'fn'; name: string; args: Expr[] };
type Step = { axis: string; test: string; predicates: Expr[] };

const AXES = new Set([
  'child',
  'descendant',
  'descendant-or-self',
  'self',
  'parent',
  'ancestor',
  'ancestor-or-self',
  'following-sibling',
  'preceding-sibling',
  'attribute',
]);
const FUNCTIONS: Record<string, [number, number]> = {
  contains: [2, 2],
  'starts-with': [2, 2],
  'ends-with': [2, 2],
  'normalize-space': [0, 1],
  string: [0, 1],
  'string-length': [0, 1],
  concat: [2, 99],
  count: [1, 1],
  position: [0, 0],
  last: [0, 0],
  not: [1, 1],
  true: [0, 0],
  false: [0, 0],
  boolean: [1, 1],
  number: [0, 1],
  name: [0, 1],
  'local-name': [0, 1],
  'substring-before': [2, 2],
  'substring-after': [2, 2],
  substring: [2, 3],
  translate: [3, 3],
};
const NODE_TYPES = new Set(['text', 'node', 'comment']);
const BINARY: string[][] = [['or'], ['and'], ['=', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', 'div', 'mod']];

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    if (!this.tokens.length) throw new XPathSyntaxError('empty expression');
    const expr = this.binary(0);
    if (this.i < this.tokens.length) throw new XPathSyntaxError(`unexpected "${this.tokens[this.i].v}"`);
    return expr;
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  private isOp(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.t === 'op' && t.v === v;
  }
  private expect(v: string): void {
    if (!this.isOp(v)) throw new XPathSyntaxError(`expected "${v}"${this.peek() ? ` before "${this.peek()!.v}"` : ''}`);
    this.i++;
  }

  private binary(level: number): Expr {
    if (level === BINARY.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      // `*`, div and mod are operators only where an operand ended (else `*` is a name test).
      if (!t || !BINARY[level].includes(t.v) || (t.t === 'name' && level < 5) || t.t === 'str' || t.t === 'num') break;
      this.i++;
      left = { k: 'bin', op: t.v, a: left, b: this.binary(level + 1) };
    }
    return left;
  }

  private unary(): Expr {
    if (this.isOp('-')) {
      this.i++;
      return { k: 'neg', a: this.unary() };
    }
    let left = this.pathExpr();
    while (this.isOp('|')) {
      this.i++;
      left = { k: 'bin', op: '|', a: left, b: this.pathExpr() };
    }
    return left;
  }

  private pathExpr(): Expr {
    const t = this.peek();
    if (!t) throw new XPathSyntaxError('expression ends too early');
    const isFunction = t.t === 'name' && this.isOp('(', 1) && !NODE_TYPES.has(t.v);
    if (t.t === 'str' || t.t === 'num' || this.isOp('(') || isFunction) {
      const primary = this.primary();
      const filters: Expr[] = [];
      while (this.isOp('[')) filters.push(this.predicate());
      if (this.isOp('/') || this.isOp('//')) {
        return { k: 'path', absolute: false, from: primary, filters, steps: this.relativePath(true) };
      }
      return filters.length ? { k: 'path', absolute: false, from: primary, filters, steps: [] } : primary;
    }
    if (this.isOp('/')) {
      this.i++;
      const next = this.peek();
      const startsStep =
        next !== undefined && (next.t === 'name' || ['*', '@', '.', '..'].includes(next.v)) && next.t !== 'str';
      return { k: 'path', absolute: true, steps: startsStep ? this.relativePath(false) : [] };
    }
    if (this.isOp('//')) return { k: 'path', absolute: true, steps: this.relativePath(true) };
    return { k: 'path', absolute: false, steps: this.relativePath(false) };
  }

  private primary(): Expr {
    const t = this.peek()!;
    if (t.t === 'str') {
      this.i++;
      return { k: 'lit', v: t.v };
    }
    if (t.t === 'num') {
      this.i++;
      return { k: 'lit', v: Number(t.v) };
    }
    if (this.isOp('(')) {
      this.i++;
      const e = this.binary(0);
      this.expect(')');
      return e;
    }
    this.i++;
    const arity = FUNCTIONS[t.v];
    if (!arity) throw new XPathSyntaxError(`unknown function ${t.v}()`);
    this.expect('(');
    const args: Expr[] = [];
    if (!this.isOp(')')) {
      args.push(this.binary(0));
      while (this.isOp(',')) {
        this.i++;
        args.push(this.binary(0));
      }
    }
    this.expect(')');
    if (args.length < arity[0] || args.length > arity[1])
      throw new XPathSyntaxError(`${t.v}() takes ${arity[0]}${arity[1] > arity[0] ? ' or more' : ''} argument(s)`);
    return { k: 'fn', name: t.v, args };
  }

  private predicate(): Expr {
    this.expect('[');
    const e = this.binary(0);
    this.expect(']');
    return e;
  }

  /** Steps; `descendantFirst` when a `//` came before the first. */
  private relativePath(descendantFirst: boolean): Step[] {
    const steps: Step[] = [];
    if (descendantFirst) {
      if (this.isOp('/') || this.isOp('//')) this.i++;
      steps.push({ axis: 'descendant-or-self', test: 'node', predicates: [] });
    }
    steps.push(this.step());
    for (;;) {
      if (this.isOp('/')) {
        this.i++;
      } else if (this.isOp('//')) {
        this.i++;
        steps.push({ axis: 'descendant-or-self', test: 'node', predicates: [] });
      } else break;
      steps.push(this.step());
    }
    return collapse(steps);
  }

  private step(): Step {
    if (this.isOp('.')) {
      this.i++;
      return { axis: 'self', test: 'node', predicates: [] };
    }
    if (this.isOp('..')) {
      this.i++;
      return { axis: 'parent', test: 'node', predicates: [] };
    }
    let axis = 'child';
    if (this.isOp('@')) {
      this.i++;
      axis = 'attribute';
    } else if (this.peek()?.t === 'name' && this.isOp('::', 1)) {
      axis = this.peek()!.v;
      if (!AXES.has(axis)) throw new XPathSyntaxError(`unsupported axis ${axis}`);
      this.i += 2;
    }
    const t = this.peek();
    let test: string;
    if (t && t.t === 'op' && t.v === '*') {
      this.i++;
      test = '*';
    } else if (t && t.t === 'name') {
      this.i++;
      if (NODE_TYPES.has(t.v) && this.isOp('(')) {
        this.i++;
        this.expect(')');
        test = t.v;
      } else test = `=${t.v.toLowerCase()}`;
    } else throw new XPathSyntaxError(`expected a step${t ? ` before "${t.v}"` : ' at the end'}`);
    const predicates: Expr[] = [];
    while (this.isOp('[')) predicates.push(this.predicate());
    return { axis, test, predicates };
  }
}

/**
 * `//x` is descendant-or-self::node()/child::x; without predicates, or with predicates that read neither the position
 * nor the size of the context (`//a[@href]`, `//meta[@name='x']`, not `//li[1]` or `//li[last()]`), it selects what
 * descendant::x does, which one walk yields in document order (no sort of the whole tree afterwards).
 */
function collapse(steps: Step[]): Step[] {
  const out: Step[] = [];
  for (const step of steps) {
    const prev = out.at(-1);
    if (
      prev?.axis === 'descendant-or-self' &&
      prev.test === 'node' &&
      !prev.predicates.length &&
      step.axis === 'child' &&
      step.predicates.every(positionFree)
    )
      out[out.length - 1] = { axis: 'descendant', test: step.test, predicates: step.predicates };
    else out.push(step);
  }
  return out;
}

/** Functions whose value is a number: as a predicate, a number is a position. */
const NUMBER_FUNCTIONS = new Set(['count', 'string-length', 'sum', 'number', 'floor', 'ceiling', 'round']);

/** A predicate whose truth does not depend on the context's position or size (nor is a number, a position). */
function positionFree(e: Expr): boolean {
  switch (e.k) {
    case 'lit':
      return typeof e.v !== 'number';
    case 'neg':
      return false;
    case 'path':
      return !readsPosition(e);
    case 'bin':
      if (['+', '-', '*', 'div', 'mod'].includes(e.op)) return false;
      return !readsPosition(e.a) && !readsPosition(e.b);
    case 'fn':
      return !NUMBER_FUNCTIONS.has(e.name) && !readsPosition(e);
  }
}

/** Whether an expression calls position() or last() in its own context (not inside a nested path's predicates). */
function readsPosition(e: Expr): boolean {
  switch (e.k) {
    case 'lit':
      return false;
    case 'neg':
      return readsPosition(e.a);
    case 'path':
      return (e.from !== undefined && readsPosition(e.from)) || (e.filters ?? []).some(readsPosition);
    case 'bin':
      return readsPosition(e.a) || readsPosition(e.b);
    case 'fn':
      return e.name === 'position' || e.name === 'last' || e.args.some(readsPosition);
  }
}

/** A compiled expression; throws XPathSyntaxError when the expression is not one this evaluator reads. */
export function compileXPath(source: string): (root: AnyNode) => Value {
  const expr = new Parser(tokenize(source)).parse();
  return (root) => evaluate(expr, { node: root, position: 1, size: 1, root });
}

interface Ctx {
  node: XNode;
  position: number;
  size: number;
  root: AnyNode;
}

const childrenOf = (n: XNode): AnyNode[] =>
  n.type !== 'attribute' && 'children' in n ? (n as { children: AnyNode[] }).children : [];
const parentOf = (n: XNode): XNode | null => (n.parent as XNode | null) ?? null;

function descendants(n: XNode, out: XNode[]): void {
  for (const c of childrenOf(n)) {
    out.push(c);
    descendants(c, out);
  }
}

export function stringValue(n: XNode): string {
  if (n.type === 'attribute') return n.value;
  if (n.type === 'text' || n.type === 'comment') return (n as { data: string }).data;
  let s = '';
  for (const c of childrenOf(n)) if (c.type !== 'comment') s += stringValue(c);
  return s;
}

function axisNodes(n: XNode, axis: string): XNode[] {
  const out: XNode[] = [];
  switch (axis) {
    case 'child':
      return childrenOf(n);
    case 'descendant':
      descendants(n, out);
      return out;
    case 'descendant-or-self':
      out.push(n);
      descendants(n, out);
      return out;
    case 'self':
      return [n];
    case 'parent': {
      const p = parentOf(n);
      return p ? [p] : [];
    }
    case 'ancestor':
    case 'ancestor-or-self': {
      if (axis === 'ancestor-or-self') out.push(n);
      for (let p = parentOf(n); p; p = parentOf(p)) out.push(p);
      return out;
    }
    case 'following-sibling':
    case 'preceding-sibling': {
      const p = parentOf(n);
      if (!p || n.type === 'attribute') return [];
      const siblings = childrenOf(p);
      const at = siblings.indexOf(n);
      return axis === 'following-sibling' ? siblings.slice(at + 1) : siblings.slice(0, at).reverse();
    }
    case 'attribute': {
      if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') return [];
      const el = n as Element;
      return Object.entries(el.attribs).map(([name, value]) => ({ type: 'attribute', name, value, parent: el }));
    }
  }
  return out;
}

const isElement = (n: XNode): boolean => n.type === 'tag' || n.type === 'script' || n.type === 'style';

function matches(n: XNode, test: string, axis: string): boolean {
  if (test === 'node') return true;
  if (test === 'text') return n.type === 'text';
  if (test === 'comment') return n.type === 'comment';
  const principal = axis === 'attribute' ? n.type === 'attribute' : isElement(n);
  if (!principal) return false;
  if (test === '*') return true;
  const name = n.type === 'attribute' ? n.name : (n as Element).name;
  return name.toLowerCase() === test.slice(1);
}

/** The descendant axis and a node test in one walk (the hot path of `//x`): no list of every node first. */
function descendantsMatching(n: XNode, test: string, out: XNode[]): void {
  const children = childrenOf(n);
  if (test.charCodeAt(0) !== 61 /* '=' */) {
    for (const c of children) {
      if (matches(c, test, 'descendant')) out.push(c);
      descendantsMatching(c, test, out);
    }
    return;
  }
  const name = test.slice(1);
  const walk = (parent: AnyNode[]) => {
    for (const c of parent) {
      if (isElement(c)) {
        const el = c as Element;
        if (el.name === name || el.name.toLowerCase() === name) out.push(el);
        walk(el.children);
      } else if ('children' in c) walk((c as { children: AnyNode[] }).children);
    }
  };
  walk(children);
}

function applyPredicate(nodes: XNode[], predicate: Expr, root: AnyNode): XNode[] {
  return nodes.filter((node, i) => {
    const v = evaluate(predicate, { node, position: i + 1, size: nodes.length, root });
    return typeof v === 'number' ? v === i + 1 : toBoolean(v);
  });
}

/** Each tree's document order, ranked once. */
const ranks = new WeakMap<AnyNode, Map<XNode, number>>();

/** Document order over the union of node sets (a tree walk ranks them). */
function documentOrder(nodes: XNode[], root: AnyNode): XNode[] {
  const unique = [...new Set(nodes)];
  if (unique.length < 2) return unique;
  let rank = ranks.get(root);
  if (!rank) {
    rank = new Map<XNode, number>();
    const all: XNode[] = [root];
    descendants(root, all);
    all.forEach((n, i) => rank!.set(n, i));
    ranks.set(root, rank);
  }
  const order = rank;
  const key = (n: XNode) => (n.type === 'attribute' ? (order.get(n.parent) ?? 0) + 0.5 : (order.get(n) ?? 0));
  return unique.sort((a, b) => key(a) - key(b));
}

function evalPath(expr: Extract<Expr, { k: 'path' }>, ctx: Ctx): XNode[] {
  let nodes: XNode[];
  if (expr.from) {
    const v = evaluate(expr.from, ctx);
    if (!Array.isArray(v)) {
      if (expr.steps.length || expr.filters?.length) throw new XPathSyntaxError('a path needs a node set');
      return [];
    }
    nodes = v;
    for (const f of expr.filters ?? []) nodes = applyPredicate(nodes, f, ctx.root);
  } else nodes = [expr.absolute ? ctx.root : ctx.node];
  for (const step of expr.steps) {
    const next: XNode[] = [];
    for (const n of nodes) {
      let found: XNode[];
      if (step.axis === 'descendant') descendantsMatching(n, step.test, (found = []));
      else found = axisNodes(n, step.axis).filter((c) => matches(c, step.test, step.axis));
      for (const p of step.predicates) found = applyPredicate(found, p, ctx.root);
      next.push(...found);
    }
    nodes = nodes.length > 1 || step.axis.startsWith('ancestor') ? documentOrder(next, ctx.root) : next;
  }
  return nodes;
}

const toStringValue = (v: Value): string =>
  Array.isArray(v) ? (v.length ? stringValue(v[0]) : '') : typeof v === 'number' ? numberText(v) : String(v);
const numberText = (n: number): string => (Number.isInteger(n) ? String(n) : String(n));
const toNumber = (v: Value): number => {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = toStringValue(v).trim();
  return s === '' ? NaN : Number(s);
};
const toBoolean = (v: Value): boolean =>
  Array.isArray(v)
    ? v.length > 0
    : typeof v === 'number'
      ? v !== 0 && !Number.isNaN(v)
      : typeof v === 'string'
        ? v.length > 0
        : v;

function compare(op: string, a: Value, b: Value): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    const left = Array.isArray(a) ? a.map(stringValue) : [a];
    const right = Array.isArray(b) ? b.map(stringValue) : [b];
    return left.some((x) => right.some((y) => compare(op, x, y)));
  }
  if (op === '=' || op === '!=') {
    let eq: boolean;
    if (typeof a === 'boolean' || typeof b === 'boolean') eq = toBoolean(a) === toBoolean(b);
    else if (typeof a === 'number' || typeof b === 'number') eq = toNumber(a) === toNumber(b);
    else eq = a === b;
    return op === '=' ? eq : !eq;
  }
  const x = toNumber(a);
  const y = toNumber(b);
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

function evaluate(expr: Expr, ctx: Ctx): Value {
  switch (expr.k) {
    case 'lit':
      return expr.v;
    case 'neg':
      return -toNumber(evaluate(expr.a, ctx));
    case 'path':
      return evalPath(expr, ctx);
    case 'bin': {
      if (expr.op === 'or') return toBoolean(evaluate(expr.a, ctx)) || toBoolean(evaluate(expr.b, ctx));
      if (expr.op === 'and') return toBoolean(evaluate(expr.a, ctx)) && toBoolean(evaluate(expr.b, ctx));
      const a = evaluate(expr.a, ctx);
      const b = evaluate(expr.b, ctx);
      if (expr.op === '|') {
        if (!Array.isArray(a) || !Array.isArray(b)) throw new XPathSyntaxError('| joins node sets only');
        return documentOrder([...a, ...b], ctx.root);
      }
      if (['=', '!=', '<', '<=', '>', '>='].includes(expr.op)) return compare(expr.op, a, b);
      const x = toNumber(a);
      const y = toNumber(b);
      return expr.op === '+'
        ? x + y
        : expr.op === '-'
          ? x - y
          : expr.op === '*'
            ? x * y
            : expr.op === 'div'
              ? x / y
              : x % y;
    }
    case 'fn':
      return callFunction(expr.name, expr.args, ctx);
  }
}

function callFunction(name: string, args: Expr[], ctx: Ctx): Value {
  const arg = (i: number) => evaluate(args[i], ctx);
  const str = (i: number) => (i < args.length ? toStringValue(arg(i)) : stringValue(ctx.node));
  switch (name) {
    case 'contains':
      return str(0).includes(str(1));
    case 'starts-with':
      return str(0).startsWith(str(1));
    case 'ends-with':
      return str(0).endsWith(str(1));
    case 'normalize-space':
      return str(0).replace(/\s+/g, ' ').trim();
    case 'string':
      return str(0);
    case 'string-length':
      return [...str(0)].length;
    case 'concat':
      return args.map((_, i) => str(i)).join('');
    case 'count': {
      const v = arg(0);
      if (!Array.isArray(v)) throw new XPathSyntaxError('count() needs a node set');
      return v.length;
    }
    case 'position':
      return ctx.position;
    case 'last':
      return ctx.size;
    case 'not':
      return !toBoolean(arg(0));
    case 'true':
      return true;
    case 'false':
      return false;
    case 'boolean':
      return toBoolean(arg(0));
    case 'number':
      return args.length ? toNumber(arg(0)) : toNumber(stringValue(ctx.node));
    case 'name':
    case 'local-name': {
      const v = args.length ? arg(0) : [ctx.node];
      const n = Array.isArray(v) ? v[0] : undefined;
      if (!n) return '';
      return n.type === 'attribute' ? n.name : 'name' in n ? (n as Element).name : '';
    }
    case 'substring-before': {
      const s = str(0);
      const at = s.indexOf(str(1));
      return at < 0 ? '' : s.slice(0, at);
    }
    case 'substring-after': {
      const s = str(0);
      const sep = str(1);
      const at = s.indexOf(sep);
      return at < 0 ? '' : s.slice(at + sep.length);
    }
    case 'substring': {
      const chars = [...str(0)];
      const start = Math.round(toNumber(arg(1)));
      const end = args.length > 2 ? start + Math.round(toNumber(arg(2))) : Infinity;
      return chars.filter((_, i) => i + 1 >= start && i + 1 < end).join('');
    }
    case 'translate': {
      const from = [...str(1)];
      const to = [...str(2)];
      return [...str(0)]
        .map((c) => {
          const at = from.indexOf(c);
          return at < 0 ? c : (to[at] ?? '');
        })
        .join('');
    }
  }
  throw new XPathSyntaxError(`unknown function ${name}()`);
}
