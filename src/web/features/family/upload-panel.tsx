import { Camera, FileText, FolderOpen, LoaderCircle, RotateCcw, Send, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { TDocType, TFamilyUploadResult } from '../../../contract';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/format';
import { sendFamilyUpload, type FamilyUpload } from './api';
import { preparePhoto } from './prepare-photo';
import { addPages, canAddPage, FAMILY_MAX_PAGES, fileKind, sendLabel, type DraftPage } from './upload-draft';
import type { DeadLinkReason, FamilyFailure } from './upload-outcome';

type DraftFile = DraftPage & { id: number; file: File; previewUrl: string | null };

type Phase =
  | { name: 'idle' }
  | { name: 'preparing' }
  | { name: 'sending'; percent: number }
  | { name: 'failed'; failure: Exclude<FamilyFailure, { kind: 'dead-link' }> };

/** The percentage a screen reader hears: every quarter, not every step of the bar. */
const spokenPercent = (percent: number) => Math.floor(percent / 25) * 25;

export function UploadPanel({
  token,
  docType,
  label,
  onSent,
  onDeadLink,
}: {
  token: string;
  docType: TDocType;
  label: string;
  onSent: (result: TFamilyUploadResult) => void;
  onDeadLink: (link: { reason: DeadLinkReason; message: string | null }) => void;
}) {
  const id = useId();
  const [pages, setPages] = useState<DraftFile[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const cameraRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const nextId = useRef(0);
  const upload = useRef<FamilyUpload | null>(null);
  const previews = useRef(new Set<string>());
  const autoRetried = useRef(false);
  const busy = phase.name === 'preparing' || phase.name === 'sending';

  // Leaving the page stops an upload under way and lets the thumbnails go.
  useEffect(() => {
    const urls = previews.current;
    return () => {
      upload.current?.abort();
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const addFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const chosen = [...(input.files ?? [])];
    // Cleared, so choosing the same file again still counts as a change.
    input.value = '';
    if (chosen.length === 0) return;
    setNotice(null);
    setPhase({ name: 'preparing' });
    const prepared: (DraftFile | null)[] = [];
    for (const [index, file] of chosen.entries()) {
      const kind = fileKind(file.type, file.name);
      if (kind === null) {
        prepared.push(null);
        continue;
      }
      const ready = kind === 'photo' ? await preparePhoto(file, pages.length + index + 1) : file;
      const previewUrl = kind === 'photo' && ready.type.startsWith('image/') ? URL.createObjectURL(ready) : null;
      if (previewUrl) previews.current.add(previewUrl);
      prepared.push({ id: nextId.current++, kind, file: ready, previewUrl });
    }
    // The buttons that add pages are off while these are prepared, so `pages` is still the draft.
    const change = addPages(pages, prepared);
    for (const page of prepared) {
      if (page?.previewUrl && !change.pages.includes(page)) {
        URL.revokeObjectURL(page.previewUrl);
        previews.current.delete(page.previewUrl);
      }
    }
    setPages(change.pages);
    setNotice(change.notice);
    setPhase({ name: 'idle' });
  };

  const removePage = (page: DraftFile) => {
    if (page.previewUrl) {
      URL.revokeObjectURL(page.previewUrl);
      previews.current.delete(page.previewUrl);
    }
    setNotice(null);
    setPages((current) => current.filter((other) => other.id !== page.id));
    if (phase.name === 'failed') setPhase({ name: 'idle' });
  };

  const send = useCallback(async () => {
    if (pages.length === 0 || upload.current) return;
    setNotice(null);
    setPhase({ name: 'sending', percent: 0 });
    const current = sendFamilyUpload(
      token,
      docType,
      pages.map((page) => page.file),
      (fraction) => setPhase({ name: 'sending', percent: Math.round(fraction * 100) }),
    );
    upload.current = current;
    const answer = await current.done;
    upload.current = null;
    if (answer.ok) {
      onSent(answer.result);
      return;
    }
    if (answer.failure.kind === 'dead-link') {
      onDeadLink({ reason: answer.failure.reason, message: answer.failure.message });
      return;
    }
    setPhase({ name: 'failed', failure: answer.failure });
  }, [docType, onDeadLink, onSent, pages, token]);

  // The failure is read out and takes the focus, with Retry right after it.
  useEffect(() => {
    if (phase.name === 'failed') failureRef.current?.focus();
  }, [phase.name]);

  // An upload cut off by a dropped connection is sent again, once, when the phone is back online.
  useEffect(() => {
    if (phase.name !== 'failed' || phase.failure.kind !== 'interrupted' || autoRetried.current) return;
    const retry = () => {
      autoRetried.current = true;
      void send();
    };
    window.addEventListener('online', retry, { once: true });
    return () => window.removeEventListener('online', retry);
  }, [phase, send]);

  const hasPages = pages.length > 0;
  const photoPages = pages.filter((page) => page.kind === 'photo').length;
  const status =
    phase.name === 'preparing'
      ? 'Getting the photo ready…'
      : phase.name === 'sending'
        ? `Sending ${label}: ${spokenPercent(phase.percent)}%`
        : hasPages
          ? `${pages.length === 1 ? '1 page' : `${pages.length} pages`} ready to send.`
          : '';

  return (
    <div className="flex flex-col gap-3" data-testid={`upload-panel-${docType}`}>
      <input
        ref={cameraRef}
        type="file"
        accept="image/*"
        capture="environment"
        className="hidden"
        aria-label={`Camera for the ${label}`}
        data-testid={`take-photo-input-${docType}`}
        onChange={(event) => void addFiles(event)}
      />
      <input
        ref={fileRef}
        type="file"
        accept="application/pdf,image/*"
        multiple
        className="hidden"
        aria-label={`File for the ${label}`}
        data-testid={`choose-file-input-${docType}`}
        onChange={(event) => void addFiles(event)}
      />
      <p role="status" aria-live="polite" className="sr-only">
        {status}
      </p>

      {hasPages ? (
        <ul className="grid grid-cols-3 gap-2" aria-label={`Pages of the ${label}`}>
          {pages.map((page, index) => (
            <li key={page.id} className="relative overflow-hidden rounded-lg border bg-muted" data-testid="draft-page">
              {page.previewUrl ? (
                <img src={page.previewUrl} alt={`Page ${index + 1}`} className="aspect-[3/4] w-full object-cover" />
              ) : (
                <div className="flex aspect-[3/4] w-full flex-col items-center justify-center gap-1 p-2 text-center text-xs">
                  <FileText className="size-8 text-muted-foreground" aria-hidden="true" />
                  <span className="line-clamp-2 break-all">{page.file.name}</span>
                  <span className="text-muted-foreground">{formatBytes(page.file.size)}</span>
                </div>
              )}
              <button
                type="button"
                className="absolute top-0 right-0 flex size-11 items-center justify-center rounded-bl-lg bg-background/90 text-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50"
                aria-label={page.kind === 'pdf' ? `Remove ${page.file.name}` : `Remove page ${index + 1}`}
                disabled={busy}
                onClick={() => removePage(page)}
              >
                <X className="size-5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      {notice ? (
        <p role="alert" className="rounded-lg bg-warning-soft px-3 py-2 text-sm text-warning-soft-foreground">
          {notice}
        </p>
      ) : null}

      {phase.name === 'sending' ? (
        <div className="flex flex-col gap-1.5">
          <div className="flex items-center justify-between text-sm font-medium">
            <span id={`${id}-progress`}>Sending…</span>
            <span aria-hidden="true">{phase.percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-labelledby={`${id}-progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={phase.percent}
            aria-valuetext={`${phase.percent}%`}
            className="h-3 w-full overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-200" style={{ width: `${phase.percent}%` }} />
          </div>
        </div>
      ) : null}

      {phase.name === 'failed' ? (
        <div
          ref={failureRef}
          tabIndex={-1}
          role="alert"
          data-testid="upload-failure"
          className="flex flex-col gap-3 rounded-lg bg-destructive-soft p-3 text-destructive-soft-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <p className="text-sm font-medium">{phase.failure.message}</p>
          {phase.failure.kind === 'interrupted' || phase.failure.kind === 'failed' ? (
            <Button className="h-12 w-full text-base" aria-label={`Retry sending the ${label}`} onClick={() => void send()}>
              <RotateCcw aria-hidden="true" />
              Retry
            </Button>
          ) : null}
        </div>
      ) : null}

      {hasPages ? (
        <>
          {canAddPage(pages) ? (
            <Button
              variant="outline"
              className="h-12 w-full text-base"
              aria-label={`Add another page of the ${label}`}
              disabled={busy}
              onClick={() => cameraRef.current?.click()}
            >
              <Camera aria-hidden="true" />
              Add another page
            </Button>
          ) : photoPages >= FAMILY_MAX_PAGES ? (
            <p className="text-sm text-muted-foreground">{FAMILY_MAX_PAGES} pages is the most one document can have.</p>
          ) : null}
          {phase.name === 'failed' && (phase.failure.kind === 'interrupted' || phase.failure.kind === 'failed') ? null : (
            <Button
              className="h-14 w-full text-base"
              aria-label={phase.name === 'sending' ? undefined : `${sendLabel(pages)} of the ${label}`}
              disabled={busy}
              onClick={() => void send()}
            >
              {phase.name === 'sending' ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
              {phase.name === 'sending' ? 'Sending…' : sendLabel(pages)}
            </Button>
          )}
        </>
      ) : (
        <div className="flex flex-col gap-2">
          <Button className="h-14 w-full text-base" aria-label={`Take a photo of the ${label}`} disabled={busy} onClick={() => cameraRef.current?.click()}>
            {phase.name === 'preparing' ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Camera aria-hidden="true" />}
            Take a photo
          </Button>
          <Button
            variant="outline"
            className="h-12 w-full text-base"
            aria-label={`Choose a file of the ${label}`}
            disabled={busy}
            onClick={() => fileRef.current?.click()}
          >
            <FolderOpen aria-hidden="true" />
            Choose a file
          </Button>
        </div>
      )}
    </div>
  );
}
