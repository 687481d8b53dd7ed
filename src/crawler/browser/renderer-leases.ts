import type { PageRenderer } from './render.types.js';

export interface RendererLease {
  renderer: PageRenderer;
  /** Once every lease is released, the renderer (and its browser) is closed. */
  release(): Promise<void>;
}

export interface RendererLeases {
  acquire(): RendererLease;
}

/**
 * One renderer per process, shared by the crawls running at once, and alive only while one runs: the first lease
 * creates it (its browser starts with the first render), the last release closes it. An idle worker holds no
 * browser, and a worker that shuts down closes it when its audits end.
 */
export function createRendererLeases(create: () => PageRenderer): RendererLeases {
  let current: PageRenderer | null = null;
  let holders = 0;
  return {
    acquire() {
      current ??= create();
      const renderer = current;
      holders++;
      let released = false;
      return {
        renderer,
        async release() {
          if (released) return;
          released = true;
          holders--;
          if (holders > 0 || current !== renderer) return;
          current = null;
          await renderer.close();
        },
      };
    },
  };
}
