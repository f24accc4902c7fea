import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from '../../lib/browser-storage';

export const SIDEBAR_COLLAPSED_STORAGE_KEY = 'sidebar-collapsed';

/** The desktop collapse choice, remembered across visits. */
export function useSidebarCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => readStorage(SIDEBAR_COLLAPSED_STORAGE_KEY) === 'true');
  const toggle = useCallback(() => {
    setCollapsed((previous) => {
      const next = !previous;
      writeStorage(SIDEBAR_COLLAPSED_STORAGE_KEY, String(next));
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
