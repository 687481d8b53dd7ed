import { describe, expect, it } from 'vitest';
import { externalTail } from '../../bench/external-tail.js';
import { auditBreakdown, type ProbeData } from '../../bench/worker-probe-report.js';

const SITE = 'http://pgdocs.test:8108';
const BIG = 'https://postgr.es';
const SMALL = 'https://en.wikipedia.org';

describe('externalTail', () => {
  // Pages end at 300; the big host's 7 targets (one asked twice: HEAD then GET) and the small host's 1 follow; the
  // favicon ends at 330, site checks start at 2,000, the audit completes at 2,100.
  const probe: ProbeData = {
    timeOrigin: 0,
    loadedAt: 0,
    requests: [
      [SITE, 'GET', '/', 200, 210, 220, 200, null],
      [SITE, 'GET', '/a.html', 220, 230, 300, 200, null],
      ...Array.from({ length: 7 }, (_, i): ProbeData['requests'][number] => [
        BIG,
        'HEAD',
        `/c/${i}`,
        250 + i * 100,
        350 + i * 100,
        -1,
        200,
        null,
      ]),
      [BIG, 'GET', '/c/0', 350, 1900, 1950, 200, null],
      [SMALL, 'HEAD', '/wiki/B-tree', 260, 500, -1, 200, null],
      [SITE, 'GET', '/favicon.ico', 310, 320, 330, 404, null],
    ],
    lookups: [],
    queries: [],
    marks: [
      ['claim', 140],
      ['phase ANALYZING', 2000],
      ['phase MEASURING', 2050],
      ['phase SAVING', 2080],
      ['complete', 2100],
    ],
    cpu: [
      [0, 0],
      [2100, 2100],
    ],
  };
  const latency = (host: string) => (host === 'postgr.es' ? 100 : 240);

  it('counts targets per host, the window and the bounds the limits allow', () => {
    const breakdown = auditBreakdown(probe, SITE, 100);
    const t = externalTail(probe, breakdown, SITE, { perOrigin: 6, lanes: 16, latencyMs: latency });
    expect(t.targets).toBe(8);
    expect(t.requests).toBe(9);
    expect(t.topHosts).toEqual([
      { origin: BIG, targets: 7, latencyMs: 100 },
      { origin: SMALL, targets: 1, latencyMs: 240 },
    ]);
    // ceil(7 / 6) x 100 = 200 against ceil(1 / 6) x 240 = 240; lanes: (7 x 100 + 240) / 16.
    expect(t.perOriginBoundMs).toBe(240);
    expect(t.lanesBoundMs).toBeCloseTo(940 / 16);
    expect(t.windowMs).toBe(1950 - 250);
    expect(t.afterLastPageMs).toBe(1950 - 300);
    expect(t.lastPageToCompleteMs).toBe(2100 - 300);
    // Without the external wait the tail would have ended with the favicon (330): 2,000 - 100 - (2,000 - 300) + 30.
    expect(t.endToEndWithoutExternalMs).toBe(2000 - 1700 + 30);
  });
});
