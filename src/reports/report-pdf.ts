import type { Browser } from 'playwright-core';
import { launchChromium } from '../platform/chromium.js';

export interface ReportPdfRenderer {
  /** The HTML document printed to PDF bytes. */
  render(html: string): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface ReportPdfOptions {
  /** The Chromium binary (CHROMIUM_PATH), launched as the lab vitals launch it. */
  chromiumPath: string;
  /** Whole budget of one render. Default 30 s. */
  timeoutMs?: number;
  /** The browser is closed after this long without a render. Default 60 s. */
  idleCloseMs?: number;
}

/**
 * Report PDFs with the lab's headless Chromium (src/platform/chromium.ts): the page is the server's own HTML
 * set with setContent, JavaScript off, and every request the page would make (none is expected: styles are
 * inline) aborted, so nothing is fetched from anywhere. One render at a time; the browser is launched on first
 * use and closed when idle.
 */
export function createReportPdfRenderer(options: ReportPdfOptions): ReportPdfRenderer {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const idleMs = options.idleCloseMs ?? 60_000;
  let browser: Promise<Browser> | null = null;
  let idle: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const closeBrowser = async () => {
    const pending = browser;
    browser = null;
    const b = await pending?.catch(() => null);
    await b?.close().catch(() => undefined);
  };

  const getBrowser = () => {
    if (!browser) {
      const launching = launchChromium(options.chromiumPath);
      launching
        .then((b) =>
          b.on('disconnected', () => {
            if (browser === launching) browser = null;
          }),
        )
        .catch(() => {
          if (browser === launching) browser = null;
        });
      browser = launching;
    }
    return browser;
  };

  const renderOnce = async (html: string): Promise<Uint8Array> => {
    clearTimeout(idle);
    const b = await getBrowser();
    const context = await b.newContext({ javaScriptEnabled: false, serviceWorkers: 'block', acceptDownloads: false });
    let timer: NodeJS.Timeout | undefined;
    try {
      await context.route('**/*', (route) => route.abort('blockedbyclient').catch(() => undefined));
      await context.routeWebSocket(/.*/, (ws) => ws.close());
      const page = await context.newPage();
      const work = (async () => {
        await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
        return page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
      })();
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`PDF rendering timed out after ${timeoutMs} ms`)), timeoutMs);
      });
      return new Uint8Array(await Promise.race([work, timedOut]));
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => undefined);
      idle = setTimeout(() => void closeBrowser(), idleMs);
      idle.unref();
    }
  };

  return {
    render(html) {
      const run = queue.then(() => renderOnce(html));
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      clearTimeout(idle);
      await queue;
      await closeBrowser();
    },
  };
}
