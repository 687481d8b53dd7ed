import { useMemo } from 'react';

/**
 * How Google's desktop results show a page: the title cut at about 600 px of 20 px Arial, the description at about
 * 920 px of 14 px Arial (two lines), each cut after a whole word with " ...". Widths are measured with a canvas 2D
 * context in the page's own font engine; without one (a very old browser), an average Arial glyph width stands in.
 */
export const TITLE_LIMIT_PX = 600;
export const DESCRIPTION_LIMIT_PX = 920;
const TITLE_FONT = '20px Arial, sans-serif';
const DESCRIPTION_FONT = '14px Arial, sans-serif';
const ELLIPSIS = ' ...';

type Measure = (text: string) => number;

let canvas: CanvasRenderingContext2D | null | undefined;
function measurer(font: string): Measure {
  canvas ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  const ctx = canvas;
  if (!ctx) {
    const size = Number.parseFloat(font);
    return (text) => text.length * size * 0.5;
  }
  return (text) => {
    ctx.font = font;
    return ctx.measureText(text).width;
  };
}

export interface Truncated {
  text: string;
  widthPx: number;
  truncated: boolean;
}

/** The text as shown within `limit` px: whole, or the longest run of whole words that fits with " ...". */
export function truncateToWidth(text: string, limit: number, measure: Measure): Truncated {
  const clean = text.replace(/\s+/g, ' ').trim();
  const widthPx = measure(clean);
  if (widthPx <= limit) return { text: clean, widthPx, truncated: false };
  const words = clean.split(' ');
  let shown = '';
  for (const word of words) {
    const next = shown ? `${shown} ${word}` : word;
    if (measure(next + ELLIPSIS) > limit) break;
    shown = next;
  }
  // A first word wider than the limit on its own is cut by characters.
  if (!shown) {
    for (const ch of clean) {
      if (measure(shown + ch + ELLIPSIS) > limit) break;
      shown += ch;
    }
  }
  return { text: shown.replace(/[\s,.;:–—-]+$/, '') + ELLIPSIS, widthPx, truncated: true };
}

/** "example.com › blog › my-post": the breadcrumb line above a result's title. */
export function breadcrumb(url: string): { site: string; trail: string } {
  try {
    const u = new URL(url);
    const parts = u.pathname
      .split('/')
      .filter(Boolean)
      .map((p) => {
        try {
          return decodeURIComponent(p);
        } catch {
          return p;
        }
      });
    return { site: u.host.replace(/^www\./, ''), trail: [`${u.protocol}//${u.host}`, ...parts].join(' › ') };
  } catch {
    return { site: url, trail: url };
  }
}

const px = (n: number) => `${Math.round(n).toLocaleString('en-US')} px`;

export function SerpPreview({
  url,
  title,
  description,
}: {
  url: string;
  title: string | null;
  description: string | null;
}) {
  const shown = useMemo(
    () => ({
      title: title?.trim() ? truncateToWidth(title, TITLE_LIMIT_PX, measurer(TITLE_FONT)) : null,
      description: description?.trim()
        ? truncateToWidth(description, DESCRIPTION_LIMIT_PX, measurer(DESCRIPTION_FONT))
        : null,
    }),
    [title, description],
  );
  const crumb = breadcrumb(url);
  return (
    <>
      <div className="serp-preview" role="group" aria-label="Search result preview">
        <p className="serp-site">{crumb.site}</p>
        <p className="serp-url">{crumb.trail}</p>
        <p className="serp-title">
          {shown.title ? shown.title.text : <span className="muted">No title: Google writes one from the page</span>}
        </p>
        <p className="serp-description">
          {shown.description ? (
            shown.description.text
          ) : (
            <span className="muted">No description: Google shows text it picks from the page</span>
          )}
        </p>
      </div>
      <ul className="plain-list serp-widths">
        <li>
          Title:{' '}
          {shown.title
            ? `${px(shown.title.widthPx)} of ${px(TITLE_LIMIT_PX)}${shown.title.truncated ? ', cut in results' : ''}`
            : 'missing'}
        </li>
        <li>
          Description:{' '}
          {shown.description
            ? `${px(shown.description.widthPx)} of ${px(DESCRIPTION_LIMIT_PX)}` +
              (shown.description.truncated ? ', cut in results' : '')
            : 'missing'}
        </li>
      </ul>
    </>
  );
}
