import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SeededProject } from './web-seed.js';

/**
 * The baseline page: the dashboard's visible content (a heading and the 50 projects with their score, change,
 * last audit and status) as one plain HTML document, no stylesheet and no script (only the app's favicon link, which
 * index.html has too; without it the browser asks for /favicon.ico and gets a 404), served by the same server
 * from the web app's assets folder (@fastify/static under /assets/). What the server and browser cost for the
 * same words, without the application.
 */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function relative(date: Date): string {
  const hours = Math.max(1, Math.round((Date.now() - date.getTime()) / 3_600_000));
  return hours < 24 ? `${hours} hour${hours === 1 ? '' : 's'} ago` : `${Math.round(hours / 24)} days ago`;
}

export function staticBaselineHtml(projects: readonly SeededProject[]): string {
  const rows = projects.map((p) => {
    const change = p.change === 0 ? '±0' : `${p.change > 0 ? '▲' : '▼'}${Math.abs(p.change)}`;
    return (
      `<tr><th scope="row"><a ` +
      `href="#">${escape(p.name)}</a><br><small>${escape(p.url)}</small></th><td>${p.score} ${change}</td><t` +
      `d>${relative(p.completedAt)}</td><td>Completed</td></tr>`
    );
  });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ' +
      'initial-scale=1"><title>Projects · SEO Audit Platform</title><link rel="icon" type="image/svg+xml" ' +
      'href="/favicon.svg"></head>',
    '<body>',
    '<header><strong>SEO Audit Platform</strong></header>',
    '<main>',
    '<h1>Projects</h1>',
    '<table>',
    '<caption>Projects with their latest audit</caption>',
    '<thead><tr><th scope="col">Project</th><th scope="col">Score</th><th scope="col">Last audit</th><th ' +
      'scope="col">Status</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody>`,
    '</table>',
    '</main>',
    '<footer><p>Open-source SEO audit platform.</p></footer>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Writes the page under a random name (nothing else can collide with it) and returns its URL path and a remover. */
export function writeStaticBaseline(
  assetsDir: string,
  projects: readonly SeededProject[],
): { urlPath: string; remove(): void } {
  const name = `bench-static-${randomBytes(6).toString('hex')}.html`;
  const file = join(assetsDir, name);
  writeFileSync(file, staticBaselineHtml(projects));
  return { urlPath: `/assets/${name}`, remove: () => rmSync(file, { force: true }) };
}
