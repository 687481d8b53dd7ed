import {
  startFixtureSite,
  type FixtureResponse,
  type FixtureRoutes,
  type RunningSite,
} from '../../fixtures/sites/fixture-server';

/** A page of the fixture site; everything here is written to be found by the audit. */
const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
  `content="width=device-width, ` +
  `initial-scale=1"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/**
 * A small local site for the web app's end-to-end tests: a home page that misses its meta description, an
 * about page, a 404 link, a page with a very short text, and a page whose <title> is a script tag (which the
 * web app must show as text, never run).
 */
const text = (body: string, type: string): FixtureResponse => ({
  headers: { 'content-type': `${type}; charset=utf-8` },
  body,
});

/** /slow/: a site whose every page takes 700 ms and links to the next ones, so an audit runs for a while. */
function slowPages(): FixtureRoutes {
  const pages: FixtureRoutes = {};
  for (let i = 0; i <= 40; i += 1) {
    const links = [i + 1, i + 2]
      .filter((n) => n <= 40)
      .map((n) => `<a href="/slow/${n}">Slow page ${n}</a>`)
      .join(' ');
    pages[i === 0 ? '/slow/' : `/slow/${i}`] = {
      delayMs: 700,
      body: page(`Slow page ${i}`, `<h1>Slow page ${i}</h1><p>Patience is a virtue.</p>${links}`),
    };
  }
  return pages;
}

/**
 * /tortoise/: an index linking to 99 pages that take 9 s each, so that an audit (4 fetches at a time, 100 pages on
 * the Free plan) runs for more than two minutes (free-plan.spec.ts watches one that long, then cancels it).
 */
function tortoisePages(): FixtureRoutes {
  const links = Array.from({ length: 99 }, (_, i) => `<a href="/tortoise/${i + 1}">Tortoise page ${i + 1}</a>`);
  const pages: FixtureRoutes = {
    '/tortoise/': {
      body: page('Tortoise Garden', `<h1>Tortoise Garden</h1><p>Slow and steady.</p>${links.join(' ')}`),
    },
  };
  for (let i = 1; i <= 99; i += 1) {
    pages[`/tortoise/${i}`] = {
      delayMs: 9_000,
      body: page(
        `Tortoise page ${i}`,
        `<h1>Tortoise page ${i}</h1><p>Slow and steady.</p><a href="/tortoise/">Index</a>`,
      ),
    };
  }
  return pages;
}

export function fixturePages(origin: string): FixtureRoutes {
  return {
    ...slowPages(),
    ...tortoisePages(),
    '/': {
      body: page(
        'Fixture Garden — plants for small balconies',
        `<h1>Fixture Garden</h1><p>Plants that thrive on small balconies, chosen by people who grow them.</p>
         <p><a href="/about">About us</a> · <a href="/guides/herbs">Herb guide</a> · <a ` +
          `href="/gone">Old offer</a> · <a href="/xss">Strange page</a></p>
         <img src="/logo.png" alt="">`,
      ),
    },
    '/about': {
      body: page(
        'About Fixture Garden',
        '<h1>About us</h1><p>We are a small team of gardeners.</p><a href="/">Home</a>',
        '<meta name="description" content="Who runs Fixture Garden and why.">',
      ),
    },
    '/guides/herbs': {
      body: page(
        'Herbs',
        '<h1>Herbs</h1><h1>Growing herbs</h1><p>Basil, mint and thyme grow well in pots.</p><a href="/">Home</a>',
      ),
    },
    '/xss': {
      body: page(
        '<script>window.__xss = 1; alert("xss")</script> Strange page',
        '<h1>Strange</h1><p>A title that looks like markup.</p><a href="/">Home</a>',
      ),
    },
    '/gone': { status: 404, body: page('Not found', '<h1>Not found</h1>') },
    '/robots.txt': text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`, 'text/plain'),
    '/sitemap.xml': text(
      `<?xml version="1.0" encoding="UTF-8"?><urlset ` +
        `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc` +
        `>${origin}/about</loc></url></urlset>`,
      'application/xml',
    ),
  };
}

export interface FixtureSite {
  origin: string;
  close(): Promise<void>;
}

/** The site on the project's fixture server (test/fixtures/sites), on 127.0.0.1. */
export async function startWebFixtureSite(): Promise<FixtureSite> {
  const site = await startFixtureSite({
    host: '127.0.0.1',
    fallback: { status: 404, body: page('Not found', '<h1>Not found</h1>') },
  });
  site.serve(fixturePages(site.origin));
  return site;
}

/** The host name of the slow site elsewhere that /far/ links to (the web server resolves it to 127.0.0.1). */
export const SLOW_LINKS_HOST = 'slow-links.test';

/**
 * A page linking `links` targets on a slow site elsewhere (each answering after `delayMs`, 6 checked at a time), so
 * that the audit waits for its external link checks after its last page; the site is `slow`.
 */
export async function startFarLinksSite(links: number, delayMs: number): Promise<FixtureSite & { slow: RunningSite }> {
  const slow = await startFixtureSite({ host: SLOW_LINKS_HOST, fallback: { body: 'there', delayMs } });
  const home = await startFixtureSite({ host: '127.0.0.1' });
  const anchors = Array.from({ length: links }, (_, k) => `<a href="${slow.origin}/doc/${k}">Reference ${k}</a>`);
  home.serve({
    '/robots.txt': text('User-agent: *\nAllow: /\n', 'text/plain'),
    '/far/': {
      body: page('Far Garden', `<h1>Far Garden</h1><p>Further reading elsewhere.</p><p>${anchors.join(' ')}</p>`),
    },
  });
  return {
    origin: home.origin,
    slow,
    close: async () => {
      await Promise.all([home.close(), slow.close()]);
    },
  };
}
