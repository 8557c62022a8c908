import { useCallback, useState } from 'react';
import { readStorage, removeStorage, storageKeys, writeStorage } from '../../lib/storage-keys';

/** Whether the wide-screen sidebar is folded to its icons, remembered on this device (xi:sidebar-collapsed). */
export function useSidebarCollapsed(): [collapsed: boolean, toggle: () => void] {
  const [collapsed, setCollapsed] = useState(() => readStorage(storageKeys.sidebarCollapsed) === '1');
  const toggle = useCallback(() => {
    setCollapsed((current) => {
      const next = !current;
      if (next) writeStorage(storageKeys.sidebarCollapsed, '1');
      else removeStorage(storageKeys.sidebarCollapsed);
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
