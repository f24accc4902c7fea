import { useRef } from 'react';

/**
 * Focus handling for a Radix dialog opened without a <DialogTrigger> (from a table row, say): Radix
 * sends focus back to its trigger on close, and with none it is lost. These handlers remember what had
 * focus when the dialog opened and give focus back to it when it closes.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      // Runs before Radix moves focus into the dialog, so this is still the opener.
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      opener.current = null;
      if (element?.isConnected) {
        event.preventDefault();
        element.focus();
      }
    },
  };
}
