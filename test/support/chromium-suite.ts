import { describe, it } from 'vitest';
import { chromiumVerdict } from './chromium.js';

// Apart from chromium.ts, which the Playwright config and the benches import without vitest.

/** The default reporter lists a skipped suite only as a count: the reason goes to stderr as well. */
function warnSkipped(name: string, reason: string): void {
  console.warn(`Chromium suite "${name}" ${reason}`);
}

type Body = () => void;
type TestBody = () => unknown;

/** `describe`, for a suite that needs the Chromium at `path` (CHROMIUM or RENDER_CHROMIUM): see chromiumVerdict. */
export function describeWithChromium(path: string): (name: string, body: Body) => void {
  const verdict = chromiumVerdict(path);
  if (verdict.kind === 'run') return (name, body) => describe(name, body);
  if (verdict.kind === 'skip')
    return (name, body) => {
      warnSkipped(name, verdict.reason);
      describe.skip(`${name} (${verdict.reason})`, body);
    };
  return (name) =>
    describe(name, () => {
      it('has Chromium to run in', () => {
        throw new Error(verdict.reason);
      });
    });
}

/** `it`, for one test that needs the Chromium at `path`: see chromiumVerdict. */
export function itWithChromium(path: string): (name: string, body: TestBody, timeout?: number) => void {
  const verdict = chromiumVerdict(path);
  if (verdict.kind === 'run') return (name, body, timeout) => it(name, body, timeout);
  if (verdict.kind === 'skip')
    return (name, body, timeout) => {
      warnSkipped(name, verdict.reason);
      it.skip(`${name} (${verdict.reason})`, body, timeout);
    };
  return (name) =>
    it(name, () => {
      throw new Error(verdict.reason);
    });
}
