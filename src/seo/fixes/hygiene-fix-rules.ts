/**
 * What the fixes of the image, security-header, redirect, soft-404, URL and link-text checks share (each fix is
 * its check's definition's `fix`).
 */
import { type FixRuleContext } from './fix-rule-context.js';

/** Both servers' way of adding one response header, and where to put it. */
export function headerSnippet(name: string, value: string): string {
  return (
    `# nginx (server block)\nadd_header ${name} "${value.replace(/"/g, '\\"')}" always;\n\n` +
    `# Apache (vhost or .htaccess, mod_headers)\nHeader always set ${name} "${value.replace(/"/g, '\\"')}"`
  );
}

/**
 * Redirects any URL whose path holds `//` to the merged path. nginx (merge_slashes on) and Apache 2.4.39+
 * (MergeSlashes On) merge slashes before `location` / `Redirect` matching, so a rule on the doubled path would never
 * match: these test the request line as sent and redirect to the merged path the server already computed.
 */
export const DOUBLE_SLASH_REDIRECT =
  '# nginx (server block)\nif ($request_uri ~ "^[^?]*//") {\n  return 301 $scheme://$host$uri$is_args$args;\n}\n\n' +
  '# Apache (vhost or .htaccess, mod_rewrite)\nRewriteEngine On\nRewriteCond %{THE_REQUEST} "^\\S+\\s[^?\\s]*//"\n' +
  'RewriteRule ^ %{REQUEST_URI} [R=301,L,NE]';

export function withPath(ctx: FixRuleContext, path: string, search = ''): string {
  try {
    const parsed = new URL(ctx.url);
    parsed.pathname = path;
    parsed.search = search;
    return parsed.href;
  } catch {
    return path;
  }
}
