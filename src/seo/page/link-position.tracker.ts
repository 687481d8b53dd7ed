import type { LinkPosition } from './page-facts.types.js';

/**
 * Where on the page a link sits, followed element by element in the extractor's streaming pass (no DOM): a stack
 * holds only the open elements that say something about position, each with its depth, so an element costs a
 * counter and, for most, a switch on its name.
 *
 * Landmarks first: `<header>` and `<footer>` (banner and contentinfo only when not inside article, aside, main, nav
 * or section, as HTML-AAM scopes them: an article's header is part of the article), `<nav>`, `<main>`, `<article>`,
 * `<aside>` and the ARIA roles banner, navigation, main, complementary and contentinfo. The innermost landmark
 * decides. Common class and id patterns after (site-header, main-nav, breadcrumbs, sidebar, footer-widgets…), read
 * only outside every landmark: inside `<main>` a "card-header" is the content's own. Anything else is content.
 */
export class LinkPositionTracker {
  private depth = 0;
  /** Open elements that set a position or scope header/footer, innermost last. */
  private readonly stack: { depth: number; position: LinkPosition | null; landmark: boolean; section: boolean }[] = [];
  /** Open landmarks (patterns are not read inside one). */
  private landmarks = 0;
  /** Open sectioning elements (a header or footer inside one is not the page's). */
  private sections = 0;
  private current: LinkPosition = 'content';

  /** The position of a link that starts now. */
  get position(): LinkPosition {
    return this.current;
  }

  open(name: string, role: string | undefined, className: string | undefined, id: string | undefined): void {
    this.depth++;
    let position: LinkPosition | null = null;
    let landmark = false;
    let section = false;
    const explicit = role === undefined ? undefined : ROLE_POSITIONS.get(firstToken(role));
    if (explicit !== undefined) {
      position = explicit.position;
      landmark = position !== null;
      section = explicit.section;
    } else {
      switch (name) {
        case 'header':
          position = this.sections === 0 ? 'header' : null;
          landmark = position !== null;
          break;
        case 'footer':
          position = this.sections === 0 ? 'footer' : null;
          landmark = position !== null;
          break;
        case 'nav':
          position = 'navigation';
          landmark = section = true;
          break;
        case 'aside':
          position = 'aside';
          landmark = section = true;
          break;
        case 'main':
        case 'article':
          position = 'content';
          landmark = section = true;
          break;
        case 'section':
          section = true;
          break;
      }
    }
    if (position === null && this.landmarks === 0 && (className !== undefined || id !== undefined))
      position = patternPosition(name, className, id);
    if (position === null && !section) return;
    this.stack.push({ depth: this.depth, position, landmark, section });
    if (landmark) this.landmarks++;
    if (section) this.sections++;
    if (position !== null) this.current = position;
  }

  close(): void {
    const top = this.stack.at(-1);
    if (top !== undefined && top.depth === this.depth) {
      this.stack.pop();
      if (top.landmark) this.landmarks--;
      if (top.section) this.sections--;
      if (top.position !== null) this.current = this.innermost();
    }
    if (this.depth > 0) this.depth--;
  }

  private innermost(): LinkPosition {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const position = this.stack[i].position;
      if (position !== null) return position;
    }
    return 'content';
  }
}

/** ARIA roles: the five landmark roles that are positions, and those that scope a header or footer. */
const ROLE_POSITIONS = new Map<string, { position: LinkPosition | null; section: boolean }>([
  ['banner', { position: 'header', section: false }],
  ['navigation', { position: 'navigation', section: true }],
  ['main', { position: 'content', section: true }],
  ['complementary', { position: 'aside', section: true }],
  ['contentinfo', { position: 'footer', section: false }],
  ['article', { position: 'content', section: true }],
  ['region', { position: null, section: true }],
]);

/** A role attribute lists fallbacks after the first ("navigation menu"): the first is the one a browser uses. */
function firstToken(role: string): string {
  const trimmed = role.trim().toLowerCase();
  const space = trimmed.search(/\s/);
  return space === -1 ? trimmed : trimmed.slice(0, space);
}

/** Elements whose class or id is not read: the document's own (a body class "has-sidebar" styles the whole page). */
const UNPATTERNED = new Set(['html', 'body', 'a', 'span', 'img', 'i', 'b', 'em', 'strong', 'small', 'svg']);

/**
 * A class or id token naming a page region: the word alone or with a site-wide prefix or a wrapper suffix
 * ("header", "site-header", "main-nav", "navbar-nav", "footer-widgets", "sidebar-left", "breadcrumbs"), never a
 * component of the content ("card-header", "entry-footer", "menu-item" match none).
 */
const REGION_PREFIX = '(?:(?:site|page|main|global|top|primary|secondary|mobile|mega|side)[-_]?)?';
const REGION_WORD = '(nav|navbar|navigation|menu|breadcrumbs?|header|masthead|footer|colophon|sidebar|aside)';
const REGION_SUFFIX =
  '(?:[-_]?(?:wrap|wrapper|container|inner|area|bar|links?|list|menu|nav|main|top|bottom|left|right|primary|' +
  'secondary|widgets?|\\d))*';
const REGION_TOKEN = new RegExp(`(?:^|\\s)${REGION_PREFIX}${REGION_WORD}${REGION_SUFFIX}(?=\\s|$)`, 'i');

const REGION_POSITIONS: Record<string, LinkPosition> = {
  nav: 'navigation',
  navbar: 'navigation',
  navigation: 'navigation',
  menu: 'navigation',
  breadcrumb: 'navigation',
  breadcrumbs: 'navigation',
  header: 'header',
  masthead: 'header',
  footer: 'footer',
  colophon: 'footer',
  sidebar: 'aside',
  aside: 'aside',
};

function patternPosition(name: string, className: string | undefined, id: string | undefined): LinkPosition | null {
  if (UNPATTERNED.has(name)) return null;
  const match =
    (className === undefined ? null : REGION_TOKEN.exec(className)) ??
    (id === undefined ? null : REGION_TOKEN.exec(id));
  return match === null ? null : REGION_POSITIONS[match[1].toLowerCase()];
}
