import { existsSync } from 'node:fs';

/** The Chromium of lab vitals, reports and the web app's tests: CHROMIUM_PATH, else Debian's `chromium`. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The Chromium of browser rendering mode, as the README sets it up: RENDER_CHROMIUM_PATH, else Debian's
 * `chromium-headless-shell` (.ci/run installs it), else CHROMIUM.
 */
export const RENDER_CHROMIUM =
  process.env.RENDER_CHROMIUM_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);
