import { describe, expect, it } from 'vitest';
import { chromiumVerdict, underCi } from '../../support/chromium.js';

const present = (path: string) => path === '/opt/chromium';
const absent = () => false;

describe('what a Chromium-dependent suite does', () => {
  it('runs when the browser is found, under CI or not', () => {
    expect(chromiumVerdict('/opt/chromium', { CI: 'true' }, present)).toEqual({ kind: 'run' });
    expect(chromiumVerdict('/opt/chromium', {}, present)).toEqual({ kind: 'run' });
  });

  it('fails under CI when the browser is missing, saying what to install', () => {
    for (const CI of ['true', '1', 'yes', 'TRUE']) {
      const verdict = chromiumVerdict('/usr/bin/chromium', { CI }, absent);
      expect(verdict.kind, CI).toBe('fail');
      expect(verdict.kind === 'fail' && verdict.reason).toMatch(
        /^Chromium is required under CI: install chromium and chromium-headless-shell.*'\/usr\/bin\/chromium'/,
      );
    }
  });

  it('skips locally when the browser is missing, with the reason visible', () => {
    for (const env of [{}, { CI: '' }, { CI: 'false' }, { CI: '0' }]) {
      const verdict = chromiumVerdict('/usr/bin/chromium', env, absent);
      expect(verdict, JSON.stringify(env)).toEqual({
        kind: 'skip',
        reason: "skipped: no Chromium at '/usr/bin/chromium' (set CHROMIUM_PATH / RENDER_CHROMIUM_PATH)",
      });
    }
  });

  it('an empty path is a missing browser, not the current directory', () => {
    expect(chromiumVerdict('', { CI: 'true' }, () => true).kind).toBe('fail');
    expect(chromiumVerdict('', {}, () => true).kind).toBe('skip');
  });

  it('reads CI as the CI services set it', () => {
    expect(underCi({ CI: 'true' })).toBe(true);
    expect(underCi({ CI: 'woodpecker' })).toBe(true);
    expect(underCi({})).toBe(false);
    expect(underCi({ CI: ' false ' })).toBe(false);
  });
});
