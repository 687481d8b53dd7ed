import type { UrlTable } from '../seo/page/index.js';

const UNSEEN = 0;
const MET = 1;
const SCHEDULED = 2;

/**
 * The URLs a crawl has met, as a Map<string, boolean> would keep them (true once a fetch of the URL is scheduled),
 * but a byte per URL id of a UrlTable: the URL strings are the table's, shared with the audit's page summaries,
 * rather than a second copy of every URL of the site in a map of its own.
 */
export class SeenUrls {
  private states = new Uint8Array(1024);

  constructor(private readonly urls: UrlTable) {}

  has(url: string): boolean {
    return this.stateOf(url) !== UNSEEN;
  }

  /** true: a fetch is scheduled (queued or done); false: met, not fetched; undefined: never met. */
  get(url: string): boolean | undefined {
    const state = this.stateOf(url);
    return state === UNSEEN ? undefined : state === SCHEDULED;
  }

  set(url: string, scheduled: boolean): void {
    const id = this.urls.intern(url);
    if (id >= this.states.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.states.length * 2));
      grown.set(this.states);
      this.states = grown;
    }
    this.states[id] = scheduled ? SCHEDULED : MET;
  }

  private stateOf(url: string): number {
    const id = this.urls.idOf(url);
    return id === -1 || id >= this.states.length ? UNSEEN : this.states[id];
  }
}
