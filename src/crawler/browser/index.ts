// Browser rendering mode of the crawler: headless Chromium, every request through the safe HTTP client.
// Loaded on demand only (src/crawler/index.ts: loadBrowserRendering): html mode never loads it.
export { createPageRenderer } from './page-renderer.js';
export { createRendererLeases, type RendererLease, type RendererLeases } from './renderer-leases.js';
export {
  DEFAULT_BLOCKED_RESOURCE_TYPES,
  RENDER_DEFAULTS,
  type PageRenderer,
  type PageRendererOptions,
  type RenderFailure,
  type RenderInput,
  type RenderOutput,
} from './render.types.js';
