import type { Browser } from 'playwright-core';

/**
 * How the platform launches headless Chromium, the one place for every browser it runs: the crawler's renderer
 * (src/crawler/browser, RENDER_CHROMIUM_PATH else CHROMIUM_PATH: rendererChromiumPath in config.ts), the lab vitals
 * meter (src/technical) and the PDF reports (src/reports), both CHROMIUM_PATH. They share this set-up. Background
 * networking, sync, component updates, QUIC and non-proxied WebRTC UDP are off, so the browser itself talks to no
 * one; what a page may load is each caller's request routing through the safe HTTP client (the SSRF policy:
 * src/crawler/browser/render-routing.ts for rendered pages, src/technical/lab-request-policy.ts for measured pages;
 * the report PDF blocks every request).
 */
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--mute-audio',
  // No proxy is configured, so this turns WebRTC UDP (STUN to arbitrary hosts, invisible to routing) off.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * A browser with no network of its own (the crawler's renderer, src/crawler/browser): every request is answered by
 * routing, through the safe HTTP client. Should one escape routing, it goes to a proxy on a closed local port (the
 * discard port, loopback included) and no name resolves.
 */
const OFFLINE_ARGS = [
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

/**
 * The features playwright-core 1.65 disables at launch (its chromiumSwitches). Chromium keeps only the last
 * --disable-features switch, so a launch that disables one more feature passes this list with it
 * (test/integration/chromium-launch.test.ts checks it against what Playwright passes).
 */
export const PLAYWRIGHT_DISABLED_FEATURES: readonly string[] = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export interface ChromiumLaunchOptions {
  /** No network of its own (OFFLINE_ARGS); host pins are then ignored. */
  offline?: boolean;
  /** Features to disable beside Playwright's own (PLAYWRIGHT_DISABLED_FEATURES). */
  disableFeatures?: readonly string[];
}

function launchArgs(pins?: ReadonlyMap<string, string>, launch?: ChromiumLaunchOptions): string[] {
  const features = launch?.disableFeatures?.length
    ? [`--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...launch.disableFeatures].join(',')}`]
    : [];
  if (launch?.offline) return [...LAUNCH_ARGS, ...OFFLINE_ARGS, ...features];
  if (!pins?.size) return [...LAUNCH_ARGS, ...features];
  const rules = [...pins].map(([host, ip]) => `MAP ${host} ${ip.includes(':') ? `[${ip}]` : ip}`).join(', ');
  return [...LAUNCH_ARGS, `--host-resolver-rules=${rules}`, ...features];
}

/**
 * Launches the configured Chromium. playwright-core is loaded on first use only: a process without a browser
 * configured never pays its ~50 MB. `hostPins` (SAFE_HTTP_RESOLVE) make the browser reach the same addresses as
 * the crawler.
 */
export async function launchChromium(
  chromiumPath: string,
  hostPins?: ReadonlyMap<string, string>,
  launch?: ChromiumLaunchOptions,
): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const args = launchArgs(hostPins, launch);
  return chromium.launch({ executablePath: chromiumPath, headless: true, args, timeout: 30_000 });
}
