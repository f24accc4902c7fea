import { LoaderCircle, Save } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  NOTIFICATION_PLACEHOLDERS,
  PLACEHOLDER_NAMES,
  placeholderProblem,
  ZNotificationTemplatePatch,
  type TNotificationTemplate,
  type TNotificationTemplatePatch,
} from '../../../../contract';
import { FormError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useUpdateTemplate } from '../api';
import { ChannelBadge } from './notification-badges';

type Field = 'name' | 'subject' | 'content';
type Errors = Partial<Record<Field, string>>;

function checkTemplate(template: TNotificationTemplate, values: Record<Field, string>): { ok: true; patch: TNotificationTemplatePatch } | { ok: false; errors: Errors } {
  const errors: Errors = {};
  const parsed = ZNotificationTemplatePatch.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'name' || field === 'subject' || field === 'content') && !errors[field]) errors[field] = issue.message;
    }
  }
  for (const field of ['subject', 'content'] as const) {
    const problem = errors[field] ? undefined : placeholderProblem(values[field], template.type);
    if (problem) errors[field] = problem;
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, patch: parsed.data };
}

function TemplateForm({ template, onDone }: { template: TNotificationTemplate; onDone: () => void }) {
  const id = useId();
  const update = useUpdateTemplate();
  const [values, setValues] = useState<Record<Field, string>>({ name: template.name, subject: template.subject, content: template.content });
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const usable = PLACEHOLDER_NAMES.filter((name) => template.type === 'email' || NOTIFICATION_PLACEHOLDERS[name].scope === 'any');

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const checked = checkTemplate(template, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    update.mutate(
      { id: template.id, patch: checked.patch },
      {
        onSuccess: (saved) => {
          toast({ title: 'Template Saved', description: `'${saved.name}' was updated.` });
          onDone();
        },
        onError: (error) => setFormError(getErrorMessage(error, 'The template could not be saved. Please try again.')),
      },
    );
  };

  const field = (name: Field, label: string, control: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      {control({ id: `${id}-${name}`, 'aria-invalid': errors[name] !== undefined, 'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined })}
      {errors[name] ? (
        <p id={`${id}-${name}-error`} className="text-xs break-words text-destructive-soft-foreground" data-testid={`template-error-${name}`}>
          {errors[name]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <FormError message={formError} />
      <fieldset disabled={update.isPending} className="flex flex-col gap-4">
        {field('name', 'Name', (props) => <Input {...props} value={values.name} onChange={(event) => set('name', event.target.value)} maxLength={80} />)}
        {field('subject', template.type === 'email' ? 'Subject' : 'Title', (props) => (
          <Input {...props} value={values.subject} onChange={(event) => set('subject', event.target.value)} maxLength={200} />
        ))}
        {field('content', 'Message', (props) => (
          <Textarea {...props} rows={8} value={values.content} onChange={(event) => set('content', event.target.value)} maxLength={10_000} className="font-mono text-sm" />
        ))}
      </fieldset>
      <details className="rounded-md border p-3 text-sm" open>
        <summary className="cursor-pointer font-medium">Placeholders</summary>
        <p className="mt-2 text-muted-foreground">
          Each message fills these in. Values are inserted as plain text{template.type === 'email' ? ' (made safe in the HTML part of the e-mail)' : ''}.
        </p>
        <dl className="mt-2 grid gap-x-3 gap-y-1 sm:grid-cols-[max-content_1fr]">
          {usable.map((name) => (
            <div key={name} className="contents">
              <dt>
                <code className="rounded bg-muted px-1 py-0.5 text-xs">{`{{${name}}}`}</code>
              </dt>
              <dd className="mb-1 text-muted-foreground sm:mb-0">{NOTIFICATION_PLACEHOLDERS[name].help}</dd>
            </div>
          ))}
        </dl>
      </details>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={update.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
          Save Template
        </Button>
      </DialogFooter>
    </form>
  );
}

export function TemplateEditDialog({ template, onOpenChange }: { template: TNotificationTemplate | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={template !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl" data-testid="template-dialog">
        {template ? (
          <>
            <DialogHeader>
              <DialogTitle>Edit Template</DialogTitle>
              <DialogDescription className="flex flex-wrap items-center gap-2">
                <ChannelBadge channel={template.type} />
                <span>Changes apply to the next message sent with it.</span>
              </DialogDescription>
            </DialogHeader>
            <TemplateForm key={template.id} template={template} onDone={() => onOpenChange(false)} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
