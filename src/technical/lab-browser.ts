import type { Browser } from 'playwright-core';

/**
 * How the platform launches headless Chromium (CHROMIUM_PATH): the lab vitals meter and the PDF reports share
 * this set-up. Background networking, sync, component updates, QUIC and non-proxied WebRTC UDP are off, so the
 * browser itself talks to no one; what a page may load is each caller's request routing (lab-request-policy.ts
 * for measured pages; the report PDF blocks every request).
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

function launchArgs(pins?: ReadonlyMap<string, string>): string[] {
  if (!pins?.size) return LAUNCH_ARGS;
  const rules = [...pins].map(([host, ip]) => `MAP ${host} ${ip.includes(':') ? `[${ip}]` : ip}`).join(', ');
  return [...LAUNCH_ARGS, `--host-resolver-rules=${rules}`];
}

/**
 * Launches the configured Chromium. playwright-core is loaded on first use only: a process without a browser
 * configured never pays its ~50 MB. `hostPins` (SAFE_HTTP_RESOLVE) make the browser reach the same addresses as
 * the crawler.
 */
export async function launchLabChromium(
  chromiumPath: string,
  hostPins?: ReadonlyMap<string, string>,
): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: launchArgs(hostPins), timeout: 30_000 });
}
