/**
 * The watch that tells an audit it has no outside network (issue 62, part 6): distinct host names failing to resolve
 * in a row, and every check sent beside the first failure ended, before it says so; a host reached starts the count
 * again, so link rot (dead domains failing faster than live hosts answer) never passes for an offline machine.
 */
import { describe, expect, it } from 'vitest';
import { NO_NETWORK_FAILURES, OutsideNetworkWatch, outsideAnswerOf } from '../../../src/crawler/outside-network.js';

function watch() {
  let lost = 0;
  const w = new OutsideNetworkWatch(() => lost++);
  return { w, lost: () => lost };
}

describe('OutsideNetworkWatch', () => {
  it('is told after five distinct hosts fail to resolve in a row, once', () => {
    const { w, lost } = watch();
    const tickets = Array.from({ length: 8 }, (_, i) => w.sentTo(`dead-${i}.example`));
    for (const t of tickets.slice(0, NO_NETWORK_FAILURES - 1)) w.ended(t, 'unresolved');
    expect(lost()).toBe(0);
    // The others sent beside them have not ended: no verdict yet.
    w.ended(tickets[4], 'unresolved');
    expect(lost()).toBe(0);
    w.ended(tickets[5], 'unresolved');
    w.ended(tickets[6], 'neither');
    expect(lost()).toBe(0);
    w.ended(tickets[7], 'unresolved');
    expect(lost()).toBe(1);
    expect(w.lost).toBe(true);
    w.ended(w.sentTo('late.example'), 'unresolved');
    expect(lost()).toBe(1);
  });

  it('counts a host once, however many of its URLs fail', () => {
    const { w, lost } = watch();
    for (let i = 0; i < 10; i++) w.ended(w.sentTo('one-dead-host.example'), 'unresolved');
    for (let i = 0; i < NO_NETWORK_FAILURES - 2; i++) w.ended(w.sentTo(`dead-${i}.example`), 'unresolved');
    expect(lost()).toBe(0);
    w.ended(w.sentTo('the-fifth.example'), 'unresolved');
    expect(lost()).toBe(1);
  });

  it('waits for a live host sent beside dead names, whose answer starts the count again (link rot)', () => {
    const { w, lost } = watch();
    // Dead names first in the page, then live hosts, all sent at once: the dead ones fail first.
    const dead = Array.from({ length: 8 }, (_, i) => w.sentTo(`dead-${i}.example`));
    const live = Array.from({ length: 8 }, (_, i) => w.sentTo(`live-${i}.example`));
    for (const t of dead) w.ended(t, 'unresolved');
    // Checks sent after the first failure do not hold the verdict; the live ones sent before it do.
    const later = w.sentTo('dead-later.example');
    w.ended(later, 'unresolved');
    expect(lost()).toBe(0);
    w.ended(live[0], 'reached');
    for (const t of live.slice(1)) w.ended(t, 'reached');
    expect(lost()).toBe(0);
    // Four more dead names are not five in a row.
    for (let i = 0; i < NO_NETWORK_FAILURES - 1; i++) w.ended(w.sentTo(`dead-again-${i}.example`), 'unresolved');
    expect(lost()).toBe(0);
  });

  it('is not told by failures that say nothing of names (stopped, refused by policy, unreachable)', () => {
    const { w, lost } = watch();
    for (let i = 0; i < 20; i++) w.ended(w.sentTo(`h-${i}.example`), 'neither');
    expect(lost()).toBe(0);
    // ...nor do they start the count again.
    for (let i = 0; i < NO_NETWORK_FAILURES; i++) w.ended(w.sentTo(`dead-${i}.example`), 'unresolved');
    expect(lost()).toBe(1);
  });
});

describe('outsideAnswerOf', () => {
  const base = { status: null, redirected: false } as const;
  it('reads a name that did not resolve, or whose lookup timed out, as unresolved', () => {
    expect(
      outsideAnswerOf({
        ...base,
        failure: 'Could not resolve host a.example',
        failureCode: 'DNS_FAILURE',
        unresolved: true,
      }),
    ).toBe('unresolved');
    expect(
      outsideAnswerOf({ ...base, failure: 'Resolving a.example timed out', failureCode: 'TIMEOUT', unresolved: true }),
    ).toBe('unresolved');
  });
  it('reads any answer past the name as reached, a redirect to a dead name included', () => {
    expect(outsideAnswerOf({ status: 404, redirected: false })).toBe('reached');
    expect(
      outsideAnswerOf({ ...base, redirected: true, failureCode: 'DNS_FAILURE', failure: 'x', unresolved: true }),
    ).toBe('reached');
    expect(
      outsideAnswerOf({ ...base, failureCode: 'CONNECTION_FAILED', failure: 'The server refused the connection' }),
    ).toBe('reached');
    expect(outsideAnswerOf({ ...base, skipped: 'addressCap' })).toBe('reached');
  });
  it('reads a stop, a policy refusal, an unreachable network or a connection timeout as neither', () => {
    expect(outsideAnswerOf({ ...base, skipped: 'aborted' })).toBe('neither');
    expect(
      outsideAnswerOf({
        ...base,
        failureCode: 'BLOCKED_ADDRESS',
        failure: 'Refused',
        blockedAddress: true,
        refusedByPolicy: 'Refused',
      }),
    ).toBe('neither');
    expect(outsideAnswerOf({ ...base, failureCode: 'CONNECTION_FAILED', failure: 'The server is unreachable' })).toBe(
      'neither',
    );
    expect(outsideAnswerOf({ ...base, failureCode: 'TIMEOUT', failure: 'Connecting to the server timed out' })).toBe(
      'neither',
    );
  });
});
