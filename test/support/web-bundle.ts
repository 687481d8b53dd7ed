import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../../facades/http/web-app.js';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/** The built web app's chunks as Vite's manifest describes them, and what a page loads before it renders. */
export class WebBundle {
  private readonly manifest: Record<string, ManifestChunk>;
  private readonly gzipCache = new Map<string, number>();

  constructor(private readonly dir = WEB_DIST) {
    this.manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));
  }

  get entry(): string {
    return Object.keys(this.manifest).find((k) => this.manifest[k].isEntry)!;
  }

  /** The manifest key of a route module, e.g. `features/auth/sign-in-page.tsx`. */
  route(module: string): string {
    const key = Object.keys(this.manifest).find((k) => k.endsWith(`src/${module}`));
    if (!key) throw new Error(`no chunk for ${module}`);
    return key;
  }

  /** The chunks loaded with these (static imports followed, dynamic ones not). */
  closure(keys: string[]): Set<string> {
    const seen = new Set<string>();
    const stack = [...keys];
    while (stack.length) {
      const key = stack.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      stack.push(...(this.manifest[key].imports ?? []));
    }
    return seen;
  }

  gzipBytes(file: string): number {
    let size = this.gzipCache.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(join(this.dir, file)), { level: 9 }).length;
      this.gzipCache.set(file, size);
    }
    return size;
  }

  /** JavaScript and CSS (gzip bytes) of the entry plus the given route modules. */
  weight(modules: string[]): { js: number; css: number; files: string[] } {
    const chunks = this.closure([this.entry, ...modules.map((m) => this.route(m))]);
    let js = 0;
    let css = 0;
    const files: string[] = [];
    for (const key of chunks) {
      const chunk = this.manifest[key];
      js += this.gzipBytes(chunk.file);
      files.push(chunk.file);
      for (const sheet of chunk.css ?? []) css += this.gzipBytes(sheet);
    }
    return { js, css, files };
  }
}
