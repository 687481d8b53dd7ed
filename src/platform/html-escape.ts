const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes a value for HTML text or a quoted attribute value: the server's one escaper for the HTML it writes (mail,
 * the client report, the docs page). The audit engine (src/seo) keeps its own in markup-text.ts: it imports nothing
 * from the platform.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
