import type { FixPageContext } from './fix.types.js';
import { collapseWhitespace, phraseFromPath } from './markup-text.js';
import { composeTopicTitle } from './title-proposal.js';

/** One of the pages that share a title (META_TITLE_DUPLICATE), as the audit stored it. */
export interface TitleTwin {
  url: string;
  /** Its first h1 when the crawl saw one. */
  h1: string | null;
}

/**
 * New titles for pages that share one (META_TITLE_DUPLICATE), each drawn from what sets its page apart: its h1, then
 * the URL path segments no other twin has (`/c-api/intro.html` and `/library/intro.html`: "C api", "Library"), then
 * its whole path. Every twin gets a different title, and none is a title the site already has (`taken`, compared in
 * lower case: the twins' shared title is one of them). The assignment depends only on the twins, `taken` and the site's
 * brand, so the fix of each twin, asked for separately, gives the title this one gives it.
 */
export function assignTwinTitles(
  twins: readonly TitleTwin[],
  taken: ReadonlySet<string>,
  page: FixPageContext | null,
): Map<string, string> {
  const sorted = [...new Map(twins.map((twin) => [twin.url, twin])).values()].sort((a, b) =>
    a.url < b.url ? -1 : a.url > b.url ? 1 : 0,
  );
  const candidates = twinTitleCandidates(sorted, page);
  const used = new Set([...taken].map((title) => title.toLowerCase()));
  const assigned = new Map<string, string>();
  sorted.forEach((twin, index) => {
    const own = candidates[index];
    let title = own.find((candidate) => !used.has(candidate.toLowerCase()));
    for (let n = 2; title === undefined; n++) {
      const numbered = `${own[own.length - 1]} (${n})`;
      if (!used.has(numbered.toLowerCase())) title = numbered;
    }
    used.add(title.toLowerCase());
    assigned.set(twin.url, title);
  });
  return assigned;
}

/** Every title assignTwinTitles may propose, for the caller to look up among the site's existing titles. */
export function twinTitleCandidateList(twins: readonly TitleTwin[], page: FixPageContext | null): string[] {
  return [...new Set(twinTitleCandidates(twins, page).flat())];
}

/** Per twin, its titles in order of preference (each twin's list; lists may overlap). */
function twinTitleCandidates(twins: readonly TitleTwin[], page: FixPageContext | null): string[][] {
  const topics = twins.map((twin) => topicOf(twin));
  const segments = twins.map((twin) => pathSegments(twin.url));
  return twins.map((twin, index) => {
    const topic = topics[index];
    // The segments of this path that not every other twin's path has, most specific (last) first.
    const distinct = segments[index].filter((segment) => !segments.every((other) => other.includes(segment)));
    const qualifier = distinct.length > 0 ? distinct.map(phraseOf).reverse().join(', ') : '';
    const whole = segments[index].map(phraseOf).join(' ');
    const titles: string[] = [];
    const add = (text: string) => {
      const title = composeTopicTitle(text, page, twin.url).text;
      if (title !== '' && !titles.includes(title)) titles.push(title);
    };
    // The h1 alone only when no other twin's topic is the same: otherwise both would propose it.
    if (topics.filter((other) => other.toLowerCase() === topic.toLowerCase()).length === 1) add(topic);
    if (qualifier !== '') {
      add(`${topic} – ${qualifier}`);
      add(`${qualifier} – ${topic}`);
    }
    if (whole !== '') {
      add(`${topic} – ${whole}`);
      add(`${whole} – ${topic}`);
    }
    add(topic);
    return titles;
  });
}

function topicOf(twin: TitleTwin): string {
  const h1 = twin.h1 === null ? '' : collapseWhitespace(twin.h1);
  return h1 !== '' ? h1 : phraseOf(pathSegments(twin.url).at(-1) ?? '') || 'Home';
}

/** The path's segments, decoded, without a file extension on the last one and without an index file name. */
function pathSegments(url: string): string[] {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return [];
  }
  const segments = path.split('/').filter(Boolean);
  const last = segments.length - 1;
  if (last >= 0) segments[last] = segments[last].replace(/\.[a-z0-9]{1,5}$/i, '');
  if (last >= 0 && /^(?:index|default)$/i.test(segments[last])) segments.pop();
  return segments;
}

function phraseOf(segment: string): string {
  return phraseFromPath(`/${segment}`);
}
