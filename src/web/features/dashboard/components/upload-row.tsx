import { FileText } from 'lucide-react';
import { DOC_TYPE_LABELS, type TUploadItem } from '../../../../contract';
import { DocumentStatusBadge } from '@/components/status-badges';
import { formatDateTime } from '@/lib/format';
import { formatRelativeTime } from '../relative-time';

/** One upload in a feed: file name, player, type, status and how long ago. */
export function UploadRow({ upload }: { upload: TUploadItem }) {
  const type = upload.docType ? DOC_TYPE_LABELS[upload.docType] : 'Type not detected';
  return (
    <li data-testid="upload-row" data-upload-id={upload.id} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-secondary text-secondary-foreground">
        <FileText className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={upload.fileName}>
          {upload.fileName}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {upload.playerName} · {type}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <DocumentStatusBadge status={upload.status} scanFailed={upload.scanFailed} />
        <time dateTime={upload.uploadedAt} title={formatDateTime(upload.uploadedAt)} className="text-xs whitespace-nowrap text-muted-foreground">
          {formatRelativeTime(upload.uploadedAt)}
        </time>
      </div>
    </li>
  );
}
