/**
 * React's server markup made acceptable to the web app's CSP (`style-src 'self'`: style attributes in HTML are
 * refused, and each refusal is a console error; `script-src 'self'`: an inline script fails the render). react-aria's
 * visually hidden elements get the app's class instead of their style attribute, `display:none` becomes the `hidden`
 * attribute; React's preload hints for images (in <body>) are dropped, the head links the icon already.
 *
 * `otherStyles`: what to do with any other style attribute. The public pages are rendered at build time and must
 * have none ('throw' fails the build); a signed-in page rendered per request ('drop') loses it until the browser's
 * render replaces the markup a moment later (virtual lists' positions and heights, a chart's height).
 */

/** react-aria's VisuallyHidden style (alone, or with a position of its own: a select's hidden native twin). */
const VISUALLY_HIDDEN = /^border:0;clip:rect\(0 0 0 0\);clip-path:inset\(50%\);height:1px;margin:-1px;overflow:hidden;/;
/** A start tag with a style attribute (React writes attributes in double quotes, and escapes `"`, `<`, `>` in them). */
const STYLED_TAG = /<([a-zA-Z][\w-]*)([^<>]*?)\sstyle="([^"]*)"([^<>]*?)(\/?)>/g;

/** The tag without its style attribute, carrying what the style said in a way the CSP allows, if there is one. */
function withoutStyle([name, before, style, after, end]: string[], otherStyles: 'throw' | 'drop'): string {
  const attributes = `${before}${after}`;
  if (VISUALLY_HIDDEN.test(style)) {
    const classed = attributes.replace(/\sclass="([^"]*)"/, (_m, names: string) => ` class="${names} visually-hidden"`);
    return `<${name}${classed === attributes ? `${attributes} class="visually-hidden"` : classed}${end}>`;
  }
  if (style === 'display:none') return `<${name}${attributes} hidden=""${end}>`;
  if (otherStyles === 'throw')
    throw new Error(`an inline style attribute would be refused by the CSP: <${name}${before} style="${style}"…>`);
  return `<${name}${attributes}${end}>`;
}

/**
 * `nonce`: a streamed page's CSP nonce (src/entry-server.tsx). React's scripts that put a streamed list in place carry
 * it and are allowed; any other script still fails the render.
 */
export function cspSafeMarkup(markup: string, otherStyles: 'throw' | 'drop' = 'throw', nonce?: string): string {
  const html = markup
    .replace(STYLED_TAG, (_tag, ...groups: string[]) => withoutStyle(groups, otherStyles))
    .replace(/<link rel="preload" as="image"[^>]*>/g, '');
  const style = /<[^>]*\sstyle="[^"]*"[^>]*>/.exec(html);
  if (style) throw new Error(`an inline style attribute would be refused by the CSP: ${style[0]}`);
  // Nor may the markup carry a script of its own (a library's inline script): the CSP would refuse it too.
  const allowed = nonce === undefined ? null : `<script nonce="${nonce}">`;
  for (const script of html.matchAll(/<script\b[^>]*>/gi))
    if (script[0] !== allowed) throw new Error(`an inline script would be refused by the CSP: ${script[0]}`);
  return html;
}
