import { useEffect } from 'react';

/** A public page's head: the whole <title> and the meta description (the server writes them into its HTML). */
export interface DocumentHead {
  title: string;
  description: string;
}

/**
 * Keeps the head of a public page right after client-side navigation: its title, description, canonical and Open
 * Graph tags (the server's HTML has them for the first load; the canonical's origin is the server's PUBLIC_URL).
 * `head` null (still loading): the head is left as it is.
 */
export function useDocumentHead(head: DocumentHead | null, path: string): void {
  const title = head?.title;
  const description = head?.description;
  useEffect(() => {
    if (title === undefined || description === undefined) return;
    document.title = title;
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    const origin = canonical ? new URL(canonical.href).origin : window.location.origin;
    const url = new URL(path, origin).href;
    if (canonical) canonical.href = url;
    const set = (selector: string, value: string) =>
      document.querySelector<HTMLMetaElement>(selector)?.setAttribute('content', value);
    set('meta[name="description"]', description);
    set('meta[property="og:title"]', title);
    set('meta[property="og:description"]', description);
    set('meta[property="og:url"]', url);
  }, [title, description, path]);
}
