import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabMeter } from '../../src/audits/audit-engine.js';
import { createLabMeter, type LabMeasurement } from '../../src/technical/index.js';
import { totalBlockingTime } from '../../src/technical/lab-blocking-time.js';
import { createLabRequestGate, isSameLabHost } from '../../src/technical/lab-request-policy.js';
import { CHROMIUM } from '../support/chromium.js';
import { describeWithChromium } from '../support/chromium-suite.js';

const OTHER_HOST = '127.0.0.2';

describe('totalBlockingTime', () => {
  it.each([
    { name: 'no long tasks', tasks: [], fcp: 100, end: 5000, tbt: 0 },
    { name: 'one 250 ms task after FCP', tasks: [[500, 250]], fcp: 100, end: 5000, tbt: 200 },
    { name: 'tasks before FCP do not count', tasks: [[0, 90]], fcp: 100, end: 5000, tbt: 0 },
    { name: 'a task straddling FCP counts only after it', tasks: [[0, 200]], fcp: 100, end: 5000, tbt: 50 },
    { name: 'a task straddling the end is clipped', tasks: [[4900, 300]], fcp: 100, end: 5000, tbt: 50 },
    { name: 'tasks after the window end do not count', tasks: [[6000, 400]], fcp: 100, end: 5000, tbt: 0 },
    {
      name: 'several tasks sum',
      tasks: [
        [200, 60],
        [400, 100],
        [900, 49],
      ],
      fcp: 100,
      end: 5000,
      tbt: 60,
    },
  ] as const)('$name', ({ tasks, fcp, end, tbt }) => {
    expect(totalBlockingTime(tasks, fcp, end)).toBe(tbt);
  });
});

describe('lab request gate', () => {
  const page = new URL('https://example.com/a');
  it.each([
    ['https://example.com/img.png', true],
    ['http://example.com/img.png', true],
    ['https://example.com:8443/x', false],
    ['https://cdn.example.com/x.js', false],
    ['http://127.0.0.1/x', false],
    ['ftp://example.com/x', false],
    ['file:///etc/passwd', false],
    ['https://user:pw@example.com/x', false],
    ['not a url', false],
  ])('default policy: %s -> %s', async (url, allowed) => {
    await expect(createLabRequestGate(page)(url)).resolves.toBe(allowed);
  });

  it('asks the caller for other hosts once per origin, and denies when the policy throws', async () => {
    const asked: string[] = [];
    const gate = createLabRequestGate(page, async (url) => {
      asked.push(url.href);
      if (url.hostname === 'broken.test') throw new Error('resolver down');
      return url.hostname === 'cdn.example.com';
    });
    await expect(gate('https://cdn.example.com/a.js')).resolves.toBe(true);
    await expect(gate('https://cdn.example.com/b.js')).resolves.toBe(true);
    await expect(gate('https://tracker.test/p')).resolves.toBe(false);
    await expect(gate('https://broken.test/p')).resolves.toBe(false);
    await expect(gate('https://example.com/own')).resolves.toBe(true);
    expect(asked).toEqual(['https://cdn.example.com/a.js', 'https://tracker.test/p', 'https://broken.test/p']);
  });

  it('treats ports as part of the host unless both are the scheme default', () => {
    expect(isSameLabHost(new URL('http://h:8080/'), new URL('http://h:8080/x'))).toBe(true);
    expect(isSameLabHost(new URL('http://h:8081/'), new URL('http://h:8080/x'))).toBe(false);
    expect(isSameLabHost(new URL('https://h/'), new URL('http://h/x'))).toBe(true);
  });
});

/** A grayscale PNG of noise: large in bytes and area, so it is the LCP element and weighs something. */
function noisePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const raw = Buffer.alloc((width + 1) * height);
  let seed = 12345;
  for (let i = 0; i < raw.length; i++) {
    if (i % (width + 1) === 0) continue; // filter byte 0
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    raw[i] = seed >>> 24;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
const shutdown = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describeWithChromium(CHROMIUM)(`lab meter in real Chromium (${CHROMIUM})`, () => {
  const png = noisePng(800, 400);
  const otherHits: string[] = [];
  const beacons: URLSearchParams[] = [];
  const siteHits: { path: string; at: number }[] = [];
  let site: Server;
  let other: Server;
  let base = '';
  let otherBase = '';

  const pages = (): Record<string, string> => ({
    // (a) text + a late 800x400 image; 300 ms after load a 400px banner pushes everything down; a 250 ms long task.
    '/shift':
      `<!doctype html><html><head><meta charset="utf-8"><title>shift</title>
<style>body{margin:0;font:20px/1.4 sans-serif}#ad{height:400px;background:#c00}p{margin:0 ` +
      `16px}img{display:block}</style></head>
<body><main><p>Layout shift page. This paragraph sits above a large image that arrives late, and a banner
will be inserted above everything shortly after the load event, pushing this text and the image down.</p>
<img src="/slow.png" width="800" height="400" alt="late"></main>
<img src="${otherBase}/pixel.png" width="1" height="1" alt="">
<script src="${otherBase}/x.js"></script>
<script>
fetch('${otherBase}/api').catch(() => {});
addEventListener('load', () => {
  setTimeout(() => { const end = performance.now() + 250; while (performance.now() < end) {} }, 50);
  setTimeout(() => { const ad = document.createElement('div'); ad.id = 'ad'; ` +
      `document.body.insertBefore(ad, document.body.firstChild); }, 300);
});
</script></body></html>`,
    // (b) small, static, fast.
    '/stable':
      `<!doctype html><html><head><meta charset="utf-8"><title>stable</title></head>
<body><h1>Stable page</h1><p>Nothing moves here. <a href="/elsewhere">A link</a> the synthetic click ` +
      `must avoid.</p></body></html>`,
    '/external':
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" ` +
      `content="width=device-width"><title>external</title></head>
<body><p>Loads a subresource from another host.</p><img src="${otherBase}/pixel.png" width="1" height="1" alt="">
<script>new Image().src = '/beacon?w=' + innerWidth + '&dpr=' + devicePixelRatio + '&touch=' + ` +
      `('ontouchstart' in window) + '&ua=' + encodeURIComponent(navigator.userAgent);</script>
</body></html>`,
    '/spin':
      `<!doctype html><html><body><p>Spins forever after load.</p><script>addEventListener('load', () => { ` +
      `for (;;) {} });</script></body></html>`,
    // Staggered pages: a 300 ms image holds the load; 50 ms after load a 300 ms long task, then a note to the server;
    // the lab's click (pointerdown) and its final read-out (visibilitychange) send two more.
    ...Object.fromEntries(
      ['a', 'b', 'c'].map((p) => [
        `/stagger/${p}`,
        `<!doctype html><html><head><meta charset="utf-8"><title>stagger ${p}</title></head><body><p>Page ${p}.</p>
<img src="/slow-small/${p}.png" width="8" height="8" alt="">
<script>
addEventListener('load', () => setTimeout(() => {
  const end = performance.now() + 300; while (performance.now() < end) {}
  fetch('/worked/${p}').catch(() => {});
}, 50));
addEventListener('pointerdown', () => { fetch('/touched/${p}').catch(() => {}); });
document.addEventListener('visibilitychange', () => { fetch('/done/${p}', { keepalive: true }).catch(() => {}); });
</script></body></html>`,
      ]),
    ),
    // Never settles: asks the server for something every 50 ms for as long as it is open.
    '/ticker': `<!doctype html><html><head><meta charset="utf-8"><title>ticker</title></head><body><p>Ticks.</p>
<script>setInterval(() => { fetch('/tick?t=' + Date.now()).catch(() => {}); }, 50);</script></body></html>`,
  });

  beforeAll(async () => {
    other = createServer((req, res) => {
      otherHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x');
    });
    otherBase = `http://${OTHER_HOST}:${await listen(other, OTHER_HOST)}`;
    site = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      siteHits.push({ path: url.pathname, at: Date.now() });
      if (url.pathname === '/tick') return void res.writeHead(204).end();
      const html = pages()[url.pathname];
      if (html) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      if (url.pathname === '/slow.png') {
        const timer = setTimeout(
          () => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png),
          1200,
        );
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (url.pathname.startsWith('/slow-small/')) {
        const small = noisePng(8, 8);
        const timer = setTimeout(
          () => res.writeHead(200, { 'content-type': 'image/png', 'content-length': small.length }).end(small),
          300,
        );
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (url.pathname === '/beacon') {
        beacons.push(url.searchParams);
        return void res.writeHead(204).end();
      }
      if (url.pathname === '/hang') return; // never answers
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
    });
    base = `http://127.0.0.1:${await listen(site, '127.0.0.1')}`;
  });

  afterAll(async () => {
    await Promise.all([site && shutdown(site), other && shutdown(other)]);
  });

  it('measures a shifting page with a late image against a stable one, and blocks other hosts', async () => {
    const errors: Array<string | null> = [];
    const meter = createLabMeter({ chromiumPath: CHROMIUM, onError: (url) => errors.push(url) });
    const engineMeter: LabMeter = meter.measure; // the audit engine's slot accepts it as is
    const urls = [
      `${base}/shift`,
      `${base}/stable`,
      `${base}/missing`,
      'http://127.0.0.1:1/refused',
      'ftp://127.0.0.1/x',
    ];
    let results: Awaited<ReturnType<LabMeter>>;
    try {
      results = await engineMeter(urls);
    } finally {
      await meter.close();
    }
    const shift = results.get(`${base}/shift`);
    const stable = results.get(`${base}/stable`);
    if (process.env.LAB_VITALS_DEBUG) console.log(JSON.stringify({ shift, stable }, null, 2));

    expect([...results.keys()]).toEqual([`${base}/shift`, `${base}/stable`]);
    expect(errors).toContain('http://127.0.0.1:1/refused');

    expect(shift).toBeDefined();
    expect(shift!.device).toBe('desktop');
    expect(shift!.cls).toBeGreaterThan(0.1);
    expect(shift!.lcpMs).toBeGreaterThanOrEqual(1000);
    expect(shift!.tbtMs).toBeGreaterThanOrEqual(150);
    expect(shift!.fcpMs).toBeLessThan(shift!.lcpMs!);
    expect(shift!.ttfbMs).toBeGreaterThanOrEqual(0);
    expect(shift!.inpMs).toBeGreaterThanOrEqual(0);
    expect(shift!.pageWeightBytes).toBeGreaterThan(png.length);

    expect(stable).toBeDefined();
    expect(stable!.cls).toBeLessThan(0.01);
    expect(stable!.lcpMs).toBeLessThan(1000);
    expect(stable!.tbtMs).toBeLessThan(50);
    expect(stable!.fcpMs).toBeGreaterThan(0);
    expect(stable!.ttfbMs).toBeGreaterThanOrEqual(0);
    expect(stable!.inpMs).toBeGreaterThanOrEqual(0);
    expect(stable!.pageWeightBytes).toBeGreaterThan(0);
    expect(stable!.pageWeightBytes).toBeLessThan(png.length);

    // The shift page asked 127.0.0.2 for an image, a script and a fetch: none of it left the browser.
    expect(otherHits).toEqual([]);
  }, 50_000);

  it('emulates mobile, lets the caller allow other hosts, and gives up on hanging or spinning pages', async () => {
    const asked: string[] = [];
    const errors: Array<string | null> = [];
    const meter = createLabMeter({
      chromiumPath: CHROMIUM,
      device: 'mobile',
      timeoutMs: 5000,
      allowedHosts: (url) => {
        asked.push(url.hostname);
        return url.hostname === OTHER_HOST;
      },
      onError: (url) => errors.push(url),
    });
    const started = Date.now();
    let results: Map<string, LabMeasurement>;
    try {
      results = await meter.measure([`${base}/hang`, `${base}/spin`, `${base}/external`]);
    } finally {
      await meter.close();
    }
    const external = results.get(`${base}/external`);
    if (process.env.LAB_VITALS_DEBUG)
      console.log(JSON.stringify({ external, beacons: beacons.map(String), ms: Date.now() - started }, null, 2));

    expect([...results.keys()]).toEqual([`${base}/external`]);
    expect(errors).toEqual([`${base}/hang`, `${base}/spin`]);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(external!.device).toBe('mobile');
    expect(external!.fcpMs).toBeGreaterThan(0);
    expect(external!.inpMs).toBeGreaterThanOrEqual(0);
    expect(otherHits).toContain('/pixel.png');
    expect(asked).toContain(OTHER_HOST);
    const beacon = beacons.at(-1);
    expect(beacon?.get('w')).toBe('412');
    expect(beacon?.get('dpr')).toBe('2.625');
    expect(beacon?.get('touch')).toBe('true');
    expect(beacon?.get('ua')).toContain('Mobile');
  }, 50_000);

  it('loads one page at a time: the next starts once the one before has loaded and gone calm, not after', async () => {
    const meter = createLabMeter({ chromiumPath: CHROMIUM });
    let results: Map<string, LabMeasurement>;
    try {
      results = await meter.measure(['a', 'b', 'c'].map((p) => `${base}/stagger/${p}`));
    } finally {
      await meter.close();
    }
    const at = (path: string) => {
      const hit = siteHits.find((h) => h.path === path);
      if (!hit) throw new Error(`${path} was never requested`);
      return hit.at;
    };
    for (const [before, next] of [
      ['a', 'b'],
      ['b', 'c'],
    ]) {
      // Its load (the slow image) and its work after load (the long task, then the note) were over, and calm, ...
      expect(at(`/stagger/${next}`)).toBeGreaterThanOrEqual(at(`/slow-small/${before}.png`) + 300);
      expect(at(`/stagger/${next}`)).toBeGreaterThanOrEqual(at(`/worked/${before}`) + 150);
      // ... but the page before was still being measured: its read-out came later.
      expect(at(`/stagger/${next}`)).toBeLessThan(at(`/done/${before}`));
    }
    // No page loads while another is clicked and read out, and no page is clicked while another loads and works.
    for (const clicked of ['a', 'b', 'c'])
      for (const other of ['a', 'b', 'c'].filter((p) => p !== clicked)) {
        const touched = at(`/touched/${clicked}`);
        const loading = [at(`/stagger/${other}`), at(`/worked/${other}`) + 150];
        expect(loading[0] > touched && loading[0] < at(`/done/${clicked}`)).toBe(false);
        expect(touched > loading[0] && touched < loading[1]).toBe(false);
      }
    // Each page's own long task, whole: no other page's load shortened or lengthened what it measured.
    expect([...results.keys()]).toEqual(['a', 'b', 'c'].map((p) => `${base}/stagger/${p}`));
    for (const m of results.values()) {
      expect(m.tbtMs).toBeGreaterThanOrEqual(200);
      expect(m.tbtMs).toBeLessThan(600);
    }
  }, 50_000);

  it('measures a page that never goes quiet once its settling time is up, and the pages after it', async () => {
    const meter = createLabMeter({ chromiumPath: CHROMIUM });
    const started = Date.now();
    let results: Map<string, LabMeasurement>;
    try {
      results = await meter.measure([`${base}/ticker?measured`, `${base}/stable?after-ticker`]);
    } finally {
      await meter.close();
    }
    expect([...results.keys()]).toEqual([`${base}/ticker?measured`, `${base}/stable?after-ticker`]);
    expect(results.get(`${base}/ticker?measured`)!.fcpMs).toBeGreaterThan(0);
    // The settling cap (5 s) and the read-outs, not the 30 s budget per page.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 50_000);

  it('an aborted measurement ends at once: page closed, later URLs skipped, nothing more is sent', async () => {
    const meter = createLabMeter({ chromiumPath: CHROMIUM, timeoutMs: 20_000 });
    const controller = new AbortController();
    try {
      const measuring = meter.measure([`${base}/ticker`, `${base}/stable?after-abort`], controller.signal);
      const ticking = Date.now();
      while (!siteHits.some((h) => h.path === '/tick')) {
        if (Date.now() - ticking > 30_000) throw new Error('the ticker page never ticked');
        await new Promise((r) => setTimeout(r, 20));
      }
      controller.abort();
      const abortedAt = Date.now();
      const results = await measuring;
      const took = Date.now() - abortedAt;
      expect(took).toBeLessThan(1000);
      expect(results.size).toBe(0);
      await new Promise((r) => setTimeout(r, 1500));
      expect(siteHits.filter((h) => h.at > abortedAt + 1000)).toEqual([]);
      expect(siteHits.some((h) => h.path === '/stable' && h.at >= abortedAt)).toBe(false);
      // A signal aborted before the call: nothing is measured, nothing is requested.
      const before = siteHits.length;
      expect((await meter.measure([`${base}/stable`], AbortSignal.abort())).size).toBe(0);
      expect(siteHits.length).toBe(before);
    } finally {
      await meter.close();
    }
  }, 60_000);
});
