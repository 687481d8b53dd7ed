/**
 * The documentation's relative links must lead somewhere: `npm run docs:links` (part of `npm run check`) scans
 * README.md, ARCHITECTURE.md and docs/**\/*.md for links and images — `[text](path)`, `![alt](path)`, reference
 * definitions `[id]: path`, HTML `href`/`src` — and exits 1 listing every one that is broken:
 *
 * - a path that does not exist, or that leaves the repository (the manual must not point to notes beside it);
 * - an `#anchor` that no heading (or `<a id>`/`<a name>`) of the target Markdown file gives, slugged as GitHub
 *   does (lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for repeats). ATX headings only (`## x`).
 *
 * External links (any scheme, `//host`) are not fetched: the check stays offline. Code blocks and code spans are
 * skipped, so an example link in a fence is not checked. Usage: `tsx src/platform/build/check-doc-links.ts [root]`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isMainModule } from '../main-module.js';

export interface BrokenLink {
  /** The Markdown file, relative to the root, with the link's line. */
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** The Markdown files the check reads: README.md, ARCHITECTURE.md and every .md under docs/. */
export function docFiles(root: string): string[] {
  const files = ['README.md', 'ARCHITECTURE.md'].filter((f) => existsSync(join(root, f)));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return files;
}

/** The text with code fences and code spans blanked (same lines and columns), so their contents are not links. */
function withoutCode(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      if (marker) {
        fence = marker;
        return '';
      }
      return line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
    })
    .join('\n');
}

/** GitHub's anchor of a heading: lower case, everything but letters, digits, `_`, `-` and spaces dropped. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image in a heading: its text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its ATX headings' slugs (repeats numbered) and explicit `<a id|name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const raw = markdown.split('\n');
  // Fenced code is blanked, so a `# comment` in a shell example is no heading; the slug reads the raw line, since
  // a heading's code span (`seo`) is part of its anchor.
  withoutCode(markdown)
    .split('\n')
    .forEach((line, i) => {
      if (/^\s{0,3}#{1,6}\s/.test(line)) {
        const slug = slugOf(/^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(raw[i]!)?.[1] ?? '');
        const count = seen.get(slug) ?? 0;
        seen.set(slug, count + 1);
        anchors.add(count === 0 ? slug : `${slug}-${count}`);
      }
      for (const m of line.matchAll(/<a\s[^>]*?\b(?:id|name)=["']([^"']+)["']/gi)) anchors.add(m[1]!);
    });
  return anchors;
}

/** The link targets of one Markdown text, each with its line (1-based). */
export function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  const patterns = [
    // [text](target "title") and ![alt](target); the text may hold one level of brackets ([![img](a)](b)).
    /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
    // [id]: target
    /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g,
    // <a href="…">, <img src="…">
    /<(?:a|img|source)\s[^>]*?\b(?:href|src)=["']([^"']+)["']/gi,
  ];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, index) => {
      for (const pattern of patterns) {
        for (const m of text.matchAll(pattern)) links.push({ target: m[1]!, line: index + 1 });
      }
    });
  return links;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Checks every relative link of the documentation under `root`; an empty list means none is broken. */
export function checkDocLinks(root: string, files: string[] = docFiles(root)): BrokenLink[] {
  const base = resolve(root);
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (path: string): Set<string> => {
    let anchors = anchorCache.get(path);
    if (!anchors) anchorCache.set(path, (anchors = anchorsOf(readFileSync(path, 'utf8'))));
    return anchors;
  };
  for (const file of files) {
    const source = join(base, file);
    for (const { target, line } of linksOf(readFileSync(source, 'utf8'))) {
      if (isExternal(target)) continue;
      const report = (reason: string) => broken.push({ file, line, target, reason });
      const hash = target.indexOf('#');
      const pathPart = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      const anchor = hash < 0 ? undefined : target.slice(hash + 1);
      let path: string;
      try {
        const decoded = decodeURIComponent(pathPart);
        path =
          decoded === '' ? source : decoded.startsWith('/') ? join(base, decoded) : resolve(dirname(source), decoded);
      } catch {
        report('not a valid URL path');
        continue;
      }
      if (path !== base && !path.startsWith(base + sep)) {
        report('points outside the repository');
        continue;
      }
      if (!existsSync(path)) {
        report(`no such file or folder: ${relative(base, path) || '.'}`);
        continue;
      }
      if (anchor && path.endsWith('.md') && statSync(path).isFile()) {
        if (!anchorsIn(path).has(decodeURIComponent(anchor))) {
          report(`no heading #${anchor} in ${relative(base, path)}`);
        }
      }
    }
  }
  return broken;
}

function main(): void {
  const root = resolve(process.argv[2] ?? '.');
  const files = docFiles(root);
  const broken = checkDocLinks(root, files);
  for (const b of broken) console.error(`${b.file}:${b.line}: ${b.target} — ${b.reason}`);
  if (broken.length > 0) {
    console.error(`docs:links: ${broken.length} broken link(s) in ${files.length} Markdown files`);
    process.exit(1);
  }
  console.log(`docs:links: every relative link of ${files.length} Markdown files leads somewhere`);
}

if (isMainModule(import.meta.url)) main();
