import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback, constants as zlib } from 'node:zlib';

const gzip = promisify(gzipCallback);
const require = createRequire(import.meta.url);

/** The directory of an installed package (the docs serve its files; nothing is fetched from a CDN). */
export const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

export interface AssetSource {
  type: string;
  /** A file on disk, read on first use, or content given inline. */
  file?: string;
  content?: string;
}

interface LoadedAsset {
  type: string;
  etag: string;
  raw: Buffer;
  gzip: Buffer | null;
}

/**
 * A fixed set of named static files, loaded and gzip-compressed once on first request (the bundles are
 * several MB; compressing each request would cost more than serving it).
 */
export class AssetStore {
  private readonly loaded = new Map<string, Promise<LoadedAsset>>();

  constructor(private readonly sources: Record<string, AssetSource>) {}

  has(name: string): boolean {
    return Object.hasOwn(this.sources, name);
  }

  get(name: string): Promise<LoadedAsset> {
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = this.load(this.sources[name]);
      // A failed read is retried on the next request rather than cached.
      asset.catch(() => this.loaded.delete(name));
      this.loaded.set(name, asset);
    }
    return asset;
  }

  private async load(source: AssetSource): Promise<LoadedAsset> {
    const raw = source.file ? await readFile(source.file) : Buffer.from(source.content ?? '', 'utf8');
    const compressible = raw.length > 1024 && /^(text\/|application\/(javascript|json))/.test(source.type);
    return {
      type: source.type,
      etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
      raw,
      gzip: compressible ? await gzip(raw, { level: zlib.Z_BEST_COMPRESSION }) : null,
    };
  }
}

export const fileIn = (pkg: string, ...path: string[]): string => join(packageDir(pkg), ...path);
