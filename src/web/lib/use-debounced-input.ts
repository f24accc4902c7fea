import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** A search is sent ~300 ms after the last key, not on every key. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A text box whose value is owned elsewhere (the URL, a parent's state): typing shows at once and is
 * committed to the owner `delayMs` after the last key; when the owner's value changes by other means
 * (Clear Filters, the back button) the box follows it.
 */
export function useDebouncedInput(committed: string, commit: (value: string) => void, delayMs = SEARCH_DEBOUNCE_MS) {
  const [text, setText] = useState(committed);
  const [seen, setSeen] = useState(committed);
  if (committed !== seen) {
    // The owner moved: show its value (React's "adjust state when a prop changes" pattern).
    setSeen(committed);
    setText(committed);
  }

  const commitRef = useRef(commit);
  useLayoutEffect(() => {
    commitRef.current = commit;
  });

  useEffect(() => {
    if (text === committed) return;
    const timer = setTimeout(() => commitRef.current(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, committed, delayMs]);

  return [text, setText] as const;
}
