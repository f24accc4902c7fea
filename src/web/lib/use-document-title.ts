import { useEffect } from 'react';

export const APP_NAME = 'Clearbase';

/** '<Screen> · Clearbase', or just the app name when there is no screen. */
export function formatDocumentTitle(screen?: string): string {
  return screen ? `${screen} · ${APP_NAME}` : APP_NAME;
}

export function useDocumentTitle(screen?: string): void {
  useEffect(() => {
    document.title = formatDocumentTitle(screen);
  }, [screen]);
}
