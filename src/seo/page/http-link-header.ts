/** One entry of an HTTP `Link` header (RFC 8288): the target as written and its lowercased params. */
export interface LinkHeaderEntry {
  target: string;
  params: Record<string, string>;
}

/**
 * Parses `Link: <url>; rel="canonical", <url2>; rel="alternate"; hreflang="de"`. Commas inside `<...>`
 * or quoted strings do not split entries. Malformed entries are skipped.
 */
export function parseLinkHeader(value: string): LinkHeaderEntry[] {
  const entries: LinkHeaderEntry[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    const open = value.indexOf('<', i);
    if (open === -1) break;
    const close = value.indexOf('>', open + 1);
    if (close === -1) break;
    const entry: LinkHeaderEntry = { target: value.slice(open + 1, close).trim(), params: {} };
    i = close + 1;
    // Parameters until the next top-level comma.
    while (i < n) {
      while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
      if (value[i] === ',') {
        i++;
        break;
      }
      if (value[i] !== ';') {
        i++;
        continue;
      }
      i++;
      const eq = /^\s*([a-z0-9*!#$&+.^_`|~-]+)\s*(=\s*)?/i.exec(value.slice(i, i + 200));
      if (!eq) continue;
      const name = eq[1].toLowerCase();
      i += eq[0].length;
      let paramValue = '';
      if (eq[2]) {
        if (value[i] === '"') {
          let j = i + 1;
          while (j < n && value[j] !== '"') j += value[j] === '\\' ? 2 : 1;
          paramValue = value.slice(i + 1, Math.min(j, n)).replace(/\\(.)/g, '$1');
          i = j + 1;
        } else {
          let j = i;
          while (j < n && value[j] !== ';' && value[j] !== ',') j++;
          paramValue = value.slice(i, j).trim();
          i = j;
        }
      }
      if (!(name in entry.params)) entry.params[name] = paramValue;
    }
    entries.push(entry);
  }
  return entries;
}

/** True when a `rel` value (space-separated tokens) contains `token`. */
export function relHas(rel: string | undefined, token: string): boolean {
  if (!rel) return false;
  return rel.toLowerCase().split(/\s+/).includes(token);
}
