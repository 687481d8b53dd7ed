import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The manuals the accuracy bench audits: hand-written HTML sites that Debian ships as packages (never nodejs-doc,
 * whose package removes the machine's Node). Each is served as its files are, from memory, on 127.0.0.1.
 */
export interface ManualSite {
  name: string;
  /** The folder served as the site's root. */
  root: string;
  /** The path the audit and linkinator start from. */
  start: string;
  /** The Debian package that installs it (said when the folder is missing). */
  pkg: string;
}

/**
 * Known manuals, by name: their folder under the documentation root (`/usr/share/doc`; gtk-doc manuals live beside it,
 * in `../gtk-doc/html`) and their start page. Linkinator follows only links that begin with the start URL, so a start
 * other than `/` limits its crawl to the start page's own links.
 */
const KNOWN: Readonly<Record<string, Omit<ManualSite, 'name' | 'root'> & { dir: string }>> = {
  postgresql: { dir: 'postgresql-doc-15/html', start: '/', pkg: 'postgresql-doc-15' },
  python: { dir: 'python3.11/html', start: '/', pkg: 'python3.11-doc' },
  django: { dir: 'python-django-doc/html', start: '/', pkg: 'python-django-doc' },
  git: { dir: 'git-doc', start: '/git.html', pkg: 'git-doc' },
  handbook: { dir: 'debian-handbook/html/en-US', start: '/', pkg: 'debian-handbook' },
  sqlite: { dir: 'sqlite3', start: '/', pkg: 'sqlite3-doc' },
  // Every language of the manual (its index redirects to English): Debian links an untranslated page to its English
  // one, which is served as a copy.
  apache: { dir: 'apache2-doc/manual', start: '/', pkg: 'apache2-doc' },
  // GTK's own pages, linking to the sibling manuals (GLib, GObject, GIO, cairo) of packages not installed with it.
  gtk3: { dir: '../gtk-doc/html/gtk3', start: '/', pkg: 'libgtk-3-doc' },
  // Texinfo's nodes; its 2,356 per-definition redirect files are linked from no page.
  octave: { dir: 'octave/octave.html', start: '/', pkg: 'octave-doc' },
};

export const DEFAULT_MANUALS = ['postgresql', 'python', 'django'];

/**
 * The sites to audit: BENCH_ACCURACY_SITES, comma-separated names of KNOWN or `name=/folder[:/start]` entries
 * (default: three manuals); the known ones are found under BENCH_ACCURACY_DOC_ROOT (default /usr/share/doc; a folder
 * where the packages were unpacked with `dpkg-deb -x` works too: point it at its usr/share/doc).
 */
export function manualSites(env: NodeJS.ProcessEnv = process.env): ManualSite[] {
  const docRoot = env.BENCH_ACCURACY_DOC_ROOT || '/usr/share/doc';
  const names = (env.BENCH_ACCURACY_SITES || DEFAULT_MANUALS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.map((entry) => {
    const custom = /^([\w-]+)=([^:]+)(?::(\/.*))?$/.exec(entry);
    if (custom) return { name: custom[1], root: custom[2], start: custom[3] ?? '/', pkg: '(your folder)' };
    const known = KNOWN[entry];
    if (!known) throw new Error(`bench accuracy: unknown manual "${entry}" (known: ${Object.keys(KNOWN).join(', ')})`);
    return { name: entry, root: join(docRoot, known.dir), start: known.start, pkg: known.pkg };
  });
}

/** Why a site cannot be audited (its start page is missing), or null. */
export function missingSite(site: ManualSite): string | null {
  const startFile = join(site.root, site.start.endsWith('/') ? `${site.start}index.html` : site.start);
  return existsSync(startFile)
    ? null
    : `${site.name}: no ${startFile} (apt-get install ${site.pkg}, or set BENCH_ACCURACY_DOC_ROOT)`;
}

/** The site's HTML files as URL paths (`/a/b.html`; `/dir/` for an index.html), sorted. */
export function htmlPaths(root: string): string[] {
  const paths: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!/\.html?$/i.test(entry.name)) continue;
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const path = `/${relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')}`;
    paths.push(path.replace(/(^|\/)index\.html$/, '$1'));
  }
  return paths.sort();
}

/**
 * A fixed sample of `n` items: evenly spaced over the sorted list, the first always in. The same list gives the same
 * sample on every run, so figures of two runs compare page for page.
 */
export function fixedSample<T>(sorted: readonly T[], n: number): T[] {
  if (sorted.length <= n) return [...sorted];
  const step = sorted.length / n;
  return Array.from({ length: n }, (_, i) => sorted[Math.floor(i * step)]);
}
