import { LayoutTemplate, Pencil } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import type { TNotificationTemplate } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { getErrorMessage } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useNotificationTemplates, useUpdateTemplate } from '../api';
import { ChannelBadge } from './notification-badges';
import { TemplateEditDialog } from './template-edit-dialog';

/** A template's enabled state as words, for a role that cannot change it. */
function EnabledText({ enabled }: { enabled: boolean }) {
  return (
    <Badge variant={enabled ? 'success' : 'secondary'} data-testid="template-enabled-text">
      {enabled ? 'Enabled' : 'Turned off'}
    </Badge>
  );
}

/** A template with its switch and Edit; without `onEdit` (a role that cannot configure), its state as words. */
function TemplateRow({ template, onEdit }: { template: TNotificationTemplate; onEdit: (() => void) | undefined }) {
  if (onEdit) return <EditableTemplateRow template={template} onEdit={onEdit} />;
  return (
    <TemplateRowFrame template={template}>
      <EnabledText enabled={template.enabled} />
    </TemplateRowFrame>
  );
}

function TemplateRowFrame({ template, children }: { template: TNotificationTemplate; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-start sm:justify-between" data-testid="template-row" data-name={template.name}>
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium">{template.name}</h3>
          <ChannelBadge channel={template.type} />
        </div>
        {template.subject ? <p className="text-sm break-words">{template.subject}</p> : null}
        {/* The first lines of the message, run together: a blank line after the greeting would leave the preview empty. */}
        <p className="line-clamp-2 text-sm break-words text-muted-foreground">{template.content.replace(/\s+/g, ' ')}</p>
      </div>
      <div className="flex shrink-0 items-center gap-4">{children}</div>
    </li>
  );
}

function EditableTemplateRow({ template, onEdit }: { template: TNotificationTemplate; onEdit: () => void }) {
  const switchId = useId();
  const update = useUpdateTemplate();
  const busy = update.isPending && update.variables.id === template.id;
  const enabled = busy ? (update.variables.patch.enabled ?? template.enabled) : template.enabled;

  const toggle = (next: boolean) =>
    update.mutate(
      { id: template.id, patch: { enabled: next } },
      {
        onSuccess: (saved) => toast({ title: saved.enabled ? 'Template Enabled' : 'Template Disabled', description: `'${saved.name}' is ${saved.enabled ? 'on' : 'off'}.` }),
        onError: (error) => toast({ variant: 'destructive', title: 'Template Not Changed', description: getErrorMessage(error) }),
      },
    );

  return (
    <TemplateRowFrame template={template}>
      <div className="flex items-center gap-2">
        <Switch id={switchId} checked={enabled} disabled={busy} onCheckedChange={toggle} data-testid="template-enabled" />
        <Label htmlFor={switchId} className="text-sm">
          Enabled
        </Label>
      </div>
      <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${template.name}`}>
        <Pencil aria-hidden="true" />
        Edit
      </Button>
    </TemplateRowFrame>
  );
}

/** Templates: each with its type, an enabled switch and Edit; read only for a role that cannot configure them. */
export function TemplatesTab() {
  const templates = useNotificationTemplates();
  const [editing, setEditing] = useState<TNotificationTemplate | null>(null);
  const { can } = usePermissions();
  const configurable = can('notifications.configure');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Templates</CardTitle>
        <CardDescription>Messages with placeholders filled in for each family. A turned-off template cannot be sent.</CardDescription>
        {configurable ? null : <ReadOnlyNote className="mt-2">Only an admin can edit templates or turn them on and off.</ReadOnlyNote>}
      </CardHeader>
      <CardContent className="px-3 sm:px-6">
        {templates.isPending ? (
          <LoadingState label="Loading templates…" className="flex flex-col gap-3">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-24 w-full" />
            ))}
          </LoadingState>
        ) : templates.isError ? (
          <LoadError
            variant="banner"
            title="Unable to load the templates."
            detail={getErrorMessage(templates.error)}
            onRetry={() => void templates.refetch()}
          />
        ) : templates.data.templates.length === 0 ? (
          <EmptyState
            icon={LayoutTemplate}
            title="No templates"
            description="The default templates are added when Clearbase starts with none."
            className="py-10"
          />
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Templates">
            {templates.data.templates.map((template) => (
              <TemplateRow key={template.id} template={template} onEdit={configurable ? () => setEditing(template) : undefined} />
            ))}
          </ul>
        )}
      </CardContent>
      {configurable ? <TemplateEditDialog template={editing} onOpenChange={(open) => !open && setEditing(null)} /> : null}
    </Card>
  );
}
