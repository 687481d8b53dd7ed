import { useEffect } from 'react';

export const APP_NAME = 'SEO Audit Platform';

/** Each page names itself in the tab and for screen readers: "Projects · SEO Audit Platform". */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
