import { DomHandler, type Document } from 'domhandler';
import type { Handler } from 'htmlparser2';

type Attributes = Record<string, string>;

/**
 * A parser handler that forwards every callback to another handler (the page facts collector) and to a domhandler
 * DomHandler, so that one tokenization of a page gives both the facts and the document tree CSS and XPath extractors
 * read: the tree is the one parseDocument(html, TREE_OPTIONS) would build by tokenizing the page a second time.
 * The parser must be created with TREE_OPTIONS (custom-extraction.evaluator.ts).
 */
export class DocumentTee implements Partial<Handler> {
  /** TREE_OPTIONS hold no DomHandler option (indices, xmlMode): parseDocument's handler has the defaults too. */
  private readonly tree = new DomHandler();

  constructor(private readonly inner: Partial<Handler>) {}

  /** The tree, once the parser has ended. */
  get document(): Document {
    return this.tree.root;
  }

  onparserinit(parser: Parameters<Handler['onparserinit']>[0]): void {
    this.inner.onparserinit?.(parser);
    this.tree.onparserinit(parser);
  }
  onreset(): void {
    this.inner.onreset?.();
    this.tree.onreset();
  }
  onend(): void {
    this.inner.onend?.();
    this.tree.onend();
  }
  onerror(error: Error): void {
    this.inner.onerror?.(error);
    this.tree.onerror(error);
  }
  onopentagname(name: string): void {
    this.inner.onopentagname?.(name);
  }
  onattribute(name: string, value: string, quote?: string | undefined | null): void {
    this.inner.onattribute?.(name, value, quote);
  }
  onopentag(name: string, attribs: Attributes, isImplied: boolean): void {
    this.inner.onopentag?.(name, attribs, isImplied);
    this.tree.onopentag(name, attribs);
  }
  onclosetag(name: string, isImplied: boolean): void {
    this.inner.onclosetag?.(name, isImplied);
    this.tree.onclosetag();
  }
  ontext(data: string): void {
    this.inner.ontext?.(data);
    this.tree.ontext(data);
  }
  oncomment(data: string): void {
    this.inner.oncomment?.(data);
    this.tree.oncomment(data);
  }
  oncommentend(): void {
    this.inner.oncommentend?.();
    this.tree.oncommentend();
  }
  oncdatastart(): void {
    this.inner.oncdatastart?.();
    this.tree.oncdatastart();
  }
  oncdataend(): void {
    this.inner.oncdataend?.();
    this.tree.oncdataend();
  }
  onprocessinginstruction(name: string, data: string): void {
    this.inner.onprocessinginstruction?.(name, data);
    this.tree.onprocessinginstruction(name, data);
  }
}
