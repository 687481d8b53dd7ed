/**
 * The viewport a virtual list assumes until it has measured the window (TanStack Virtual's `initialRect`). The server,
 * which has no window, renders that many rows into a signed-in page, so the page is painted with its first rows before
 * any script runs. In the browser the list measures the window in a layout effect, before its first paint.
 */
export const FIRST_SCREEN = { width: 1280, height: 900 };

/**
 * On a virtual list's element in the server's markup: its rows' inline positions are dropped there (the CSP refuses
 * style attributes in HTML), so styles.css stands them in the list's flow until the browser renders the list.
 */
export const serverRows = (): { 'data-server-rows'?: '' } => (import.meta.env.SSR ? { 'data-server-rows': '' } : {});
