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

export const CHROMIUM_REQUIRED_UNDER_CI =
  'Chromium is required under CI: install chromium and chromium-headless-shell (or set CHROMIUM_PATH and ' +
  'RENDER_CHROMIUM_PATH)';

/**
 * What a Chromium-dependent suite does: run when the browser is there; when it is not, fail under CI (a rendering
 * change must not go green untested there) and skip elsewhere, saying why in the suite's name.
 */
export type ChromiumVerdict = { kind: 'run' } | { kind: 'fail'; reason: string } | { kind: 'skip'; reason: string };

/** CI as the CI services set it: any value but empty, `0` or `false`. */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

export function chromiumVerdict(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): ChromiumVerdict {
  if (path && exists(path)) return { kind: 'run' };
  if (underCi(env)) return { kind: 'fail', reason: `${CHROMIUM_REQUIRED_UNDER_CI}; no Chromium at '${path}'` };
  return { kind: 'skip', reason: `skipped: no Chromium at '${path}' (set CHROMIUM_PATH / RENDER_CHROMIUM_PATH)` };
}
