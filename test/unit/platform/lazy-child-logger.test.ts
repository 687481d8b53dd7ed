import { describe, expect, it, vi } from 'vitest';
import { createLogger, LazyChildLogger } from '../../../src/platform/logger.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level, name: 'test' }, { write: (chunk: string) => lines.push(JSON.parse(chunk)) });
  return { logger, lines };
}

const withoutTime = (line: Record<string, unknown>) => ({ ...line, time: 0 });

describe('LazyChildLogger', () => {
  it('creates no pino child for a request that logs nothing at an enabled level', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = new LazyChildLogger(logger, { reqId: 'r1' });
    log.info('incoming request');
    log.debug({ a: 1 }, 'detail');
    log.trace('x');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('error')).toBe(true);
  });

  it('writes what a pino child writes (bindings, redaction), creating the child once', () => {
    const lazy = capture('info');
    const eager = capture('info');
    const child = vi.spyOn(lazy.logger, 'child');
    const log = new LazyChildLogger(lazy.logger, { reqId: 'r2' });
    const real = eager.logger.child({ reqId: 'r2' });
    for (const target of [log, real]) {
      target.info('incoming request');
      target.warn(
        { headers: { authorization: 'Bearer seo_secret', cookie: 'better-auth.session-token=abc' } },
        'with secrets',
      );
      target.error({ err: new Error('boom') }, 'request failed');
      target.debug('below the level');
    }
    expect(child).toHaveBeenCalledTimes(1);
    expect(lazy.lines.map(withoutTime)).toEqual(eager.lines.map(withoutTime));
    expect(lazy.lines).toHaveLength(3);
    expect(JSON.stringify(lazy.lines)).not.toContain('seo_secret');
    expect(lazy.lines.every((l) => l.reqId === 'r2')).toBe(true);
  });

  it('honours a per-route level and hands out real children', () => {
    const { logger, lines } = capture('info');
    const log = new LazyChildLogger(logger, { reqId: 'r3' }, { level: 'error' });
    log.warn('muted by the route level');
    expect(log.level).toBe('error');
    log.error('kept');
    log.child({ step: 'inner' }).error('nested');
    expect(lines.map((l) => [l.msg, l.reqId, l.step])).toEqual([
      ['kept', 'r3', undefined],
      ['nested', 'r3', 'inner'],
    ]);
  });
});
