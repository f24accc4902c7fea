import { Eye, EyeOff } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/**
 * A password field with a Show/Hide button beside it (aria-pressed), so a long new password can be checked
 * before it is sent. The button comes right after the field in the tab order.
 */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className={cn('relative', className)}>
      <Input {...props} type={visible ? 'text' : 'password'} className="pr-10" spellCheck={false} autoCapitalize="none" />
      <Button
        variant="ghost"
        size="icon"
        className="absolute top-0 right-0 h-9 w-9 text-muted-foreground hover:bg-transparent"
        aria-label="Show password"
        aria-pressed={visible}
        aria-controls={props.id}
        onClick={() => setVisible((shown) => !shown)}
        disabled={props.disabled}
      >
        {visible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
      </Button>
    </div>
  );
}
