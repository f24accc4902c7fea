import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { toast } from '@/lib/toast-store';

const COPIED_MS = 2000;

/**
 * Copies `text` to the clipboard; for two seconds the button says 'Copied' (announced politely). Where the
 * browser refuses, a toast asks to select the text and copy it by hand.
 */
export function CopyButton({ text, label = 'Copy', copiedLabel = 'Copied', ...props }: { text: string; label?: string; copiedLabel?: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast({ variant: 'destructive', title: 'Not copied', description: 'This browser did not allow it. Select the text and copy it yourself.' });
    }
  };

  return (
    <Button variant="outline" {...props} onClick={() => void copy()}>
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </Button>
  );
}
