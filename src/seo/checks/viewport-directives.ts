/**
 * The directives of a `<meta name="viewport">` content, in order, as lower-cased key and value pairs: parts split on
 * `,` or `;` (browsers accept both), a part without `=` skipped. One reading for every check of the viewport.
 */
export function viewportDirectives(content: string): [key: string, value: string][] {
  const directives: [string, string][] = [];
  for (const part of content.split(/[,;]/)) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    directives.push([
      part.slice(0, eq).trim().toLowerCase(),
      part
        .slice(eq + 1)
        .trim()
        .toLowerCase(),
    ]);
  }
  return directives;
}
