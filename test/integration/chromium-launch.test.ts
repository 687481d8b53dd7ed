import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { launchChromium, type ChromiumLaunchOptions } from '../../src/platform/chromium.js';
import { RENDER_CHROMIUM } from '../support/chromium.js';
import { describeWithChromium } from '../support/chromium-suite.js';

/** The --disable-features each renderer process below this one was started with (what the browser enforces). */
function rendererDisabledFeatures(): Set<string>[] {
  const parents = new Map<number, number>();
  const lines = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      lines.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8'));
    } catch {
      // Gone meanwhile.
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid); p; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  const found: Set<string>[] = [];
  for (const [pid, line] of lines) {
    // Zygote-forked processes rewrite their command line as one string (setproctitle): spaces, not NULs.
    const args = line.split(/[\0 ]/);
    if (!below(pid) || !args.includes('--type=renderer')) continue;
    const features = args.find((a) => a.startsWith('--disable-features='));
    found.push(new Set(features ? features.slice('--disable-features='.length).split(',') : []));
  }
  return found;
}

async function disabledIn(launch?: ChromiumLaunchOptions): Promise<Set<string>> {
  const browser = await launchChromium(RENDER_CHROMIUM, undefined, launch);
  try {
    const page = await browser.newPage();
    await page.setContent('<p>renderer</p>');
    const renderers = rendererDisabledFeatures();
    expect(renderers.length).toBeGreaterThan(0);
    return renderers[0];
  } finally {
    await browser.close();
  }
}

describeWithChromium(RENDER_CHROMIUM)('launching Chromium with a feature disabled', () => {
  it('keeps every feature Playwright disables: Chromium takes only the last --disable-features', async () => {
    const playwrights = await disabledIn();
    expect(playwrights.has('HttpsUpgrades')).toBe(true);
    const ours = await disabledIn({ offline: true, disableFeatures: ['RenderDocument'] });
    expect(ours.has('RenderDocument')).toBe(true);
    expect([...playwrights].filter((f) => !ours.has(f))).toEqual([]);
  });
});
