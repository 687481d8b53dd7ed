/** Web-server configuration lines (nginx and Apache) for the fixes that live in server config. */

export interface RedirectPair {
  /** Path on this site (no query; server rules match paths). */
  from: string;
  /** Absolute target URL or path. */
  to: string;
}

/** nginx and Apache matching operate on the decoded path; quote it when it holds spaces or syntax characters. */
function configPath(path: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  return /[\s"'{};#\\]/.test(decoded) ? `"${decoded.replace(/["\\]/g, '\\$&')}"` : decoded;
}

function configTarget(url: string): string {
  return /[\s"'{};\\]/.test(url) ? `"${url.replace(/["\\]/g, '\\$&')}"` : url;
}

/** Exact-path permanent redirects, nginx then Apache (mod_alias). */
export function redirectRules(pairs: readonly RedirectPair[]): string {
  const nginx = pairs.map((pair) => `location = ${configPath(pair.from)} { return 301 ${configTarget(pair.to)}; }`);
  const apache = pairs.map((pair) => `Redirect 301 ${configPath(pair.from)} ${configTarget(pair.to)}`);
  return `# nginx (server block)\n${nginx.join('\n')}\n\n# Apache (.htaccess or vhost)\n${apache.join('\n')}`;
}

/** A shell-quoted argument (single quotes, embedded quotes closed and escaped). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Path without query or fragment of a URL or path. */
export function pathOnly(url: string): string {
  try {
    return new URL(url, 'http://host.invalid').pathname;
  } catch {
    return url.split(/[?#]/)[0];
  }
}

/** The closest existing-looking parent folder of a path ("/blog/old-post" -> "/blog/"). */
export function parentPath(path: string): string {
  const segments = pathOnly(path).split('/').filter(Boolean);
  segments.pop();
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}
