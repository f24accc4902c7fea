import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { readStorage, writeStorage } from '@/lib/browser-storage';
import { useMediaQuery } from '@/lib/use-media-query';
import {
  DARK_SCHEME_QUERY,
  parseThemePreference,
  resolveTheme,
  THEME_STORAGE_KEY,
  type ResolvedTheme,
  type ThemePreference,
} from './theme';

interface ThemeContextValue {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function applyThemeClass(resolved: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', resolved === 'dark');
}

/** The theme as stored and the system setting, read synchronously so the first paint is right. */
export function readInitialTheme(): ResolvedTheme {
  return resolveTheme(parseThemePreference(readStorage(THEME_STORAGE_KEY)), window.matchMedia(DARK_SCHEME_QUERY).matches);
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>(() =>
    parseThemePreference(readStorage(THEME_STORAGE_KEY)),
  );
  // Subscribed even when a fixed theme is chosen so switching back to System is instant.
  const systemPrefersDark = useMediaQuery(DARK_SCHEME_QUERY);
  const resolved = resolveTheme(preference, systemPrefersDark);

  useEffect(() => {
    applyThemeClass(resolved);
  }, [resolved]);

  const setPreference = useCallback((next: ThemePreference) => {
    writeStorage(THEME_STORAGE_KEY, next);
    setPreferenceState(next);
  }, []);

  const value = useMemo(() => ({ preference, resolved, setPreference }), [preference, resolved, setPreference]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('useTheme must be used inside <ThemeProvider>');
  return context;
}
