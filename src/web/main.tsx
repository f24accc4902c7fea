import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { removeLegacyStorage } from './app/auth/legacy-storage';
import { applyThemeClass, readInitialTheme } from './app/theme/theme-provider';
import './styles.css';

// Before the first paint, so a dark-mode visitor never sees a white flash.
applyThemeClass(readInitialTheme());
removeLegacyStorage();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
