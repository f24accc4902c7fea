import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ZFamilyPage, ZFamilyUploadResult, type TDocType, type TFamilyPage, type TFamilyUploadResult } from '../../../contract';
import { pageFailure, uploadFailure, type FamilyFailure } from './upload-outcome';

/** The family API's address for one link; the token is a path segment of an API call, never of the page's address. */
const familyApiUrl = (token: string) => `/api/family/${encodeURIComponent(token)}`;

const familyPageKey = (token: string) => ['family', 'page', token] as const;

/** A failed read of the page, with what it means to the family. */
export class FamilyPageError extends Error {
  override readonly name = 'FamilyPageError';
  readonly failure: FamilyFailure;

  constructor(failure: FamilyFailure) {
    super(failure.kind === 'dead-link' ? 'This link cannot be used.' : failure.message);
    this.failure = failure;
  }
}

async function readFamilyPage(token: string, signal: AbortSignal): Promise<TFamilyPage> {
  let response: Response;
  try {
    // No cookie goes with it: the link alone opens the page, whoever else is signed in on this browser.
    response = await fetch(familyApiUrl(token), { credentials: 'omit', signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new FamilyPageError(pageFailure(0));
  }
  if (!response.ok) throw new FamilyPageError(pageFailure(response.status, await response.text().catch(() => '')));
  const parsed = ZFamilyPage.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new FamilyPageError(pageFailure(500));
  return parsed.data;
}

/** GET /api/family/:token: what the link shows. A dead link is not asked again; a dropped connection is, twice. */
export function useFamilyPage(token: string) {
  return useQuery({
    queryKey: familyPageKey(token),
    queryFn: ({ signal }) => readFamilyPage(token, signal),
    retry: (failures, error) => error instanceof FamilyPageError && error.failure.kind !== 'dead-link' && failures < 2,
    // A phone on a slow network: the page is read when opened and after each upload, not on every focus.
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Puts the page an upload answered in place of the one read before, so every card shows the new states. */
export function useReplaceFamilyPage(token: string): (page: TFamilyPage) => void {
  const client = useQueryClient();
  return useCallback((page: TFamilyPage) => client.setQueryData(familyPageKey(token), page), [client, token]);
}

export type UploadAnswer = { ok: true; result: TFamilyUploadResult } | { ok: false; failure: FamilyFailure };

export interface FamilyUpload {
  done: Promise<UploadAnswer>;
  /** Stops the upload; `done` then resolves as interrupted. */
  abort: () => void;
}

/**
 * After an upload that got no answer: whether the link itself is dead. The server answers a dead link before
 * reading the body and closes the connection, which a browser still sending may report as a network error.
 */
async function deadLinkAfterNoAnswer(token: string): Promise<FamilyFailure | null> {
  try {
    const response = await fetch(familyApiUrl(token), { credentials: 'omit', headers: { Accept: 'application/json' } });
    const failure = response.ok ? null : pageFailure(response.status, await response.text().catch(() => ''));
    return failure?.kind === 'dead-link' ? failure : null;
  } catch {
    return null;
  }
}

/**
 * POST /api/family/:token/uploads as multipart: the `docType` field first, then each file as a `file` part.
 * XMLHttpRequest, not fetch, because only it reports how much of the body has gone (`onProgress`, 0..1).
 */
export function sendFamilyUpload(
  token: string,
  docType: TDocType,
  files: readonly File[],
  onProgress: (fraction: number) => void,
): FamilyUpload {
  const form = new FormData();
  form.append('docType', docType);
  for (const file of files) form.append('file', file, file.name);

  const request = new XMLHttpRequest();
  const done = new Promise<UploadAnswer>((resolve) => {
    let aborted = false;
    const failed = (status: number) => {
      const failure = uploadFailure(status, status === 0 ? '' : request.responseText, request.getResponseHeader('Retry-After'), new Date());
      if (status !== 0 || aborted) return resolve({ ok: false, failure });
      void deadLinkAfterNoAnswer(token).then((dead) => resolve({ ok: false, failure: dead ?? failure }));
    };
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(1, event.loaded / event.total));
    };
    request.onload = () => {
      if (request.status < 200 || request.status >= 300) return failed(request.status);
      onProgress(1);
      try {
        const parsed = ZFamilyUploadResult.safeParse(JSON.parse(request.responseText));
        if (parsed.success) return resolve({ ok: true, result: parsed.data });
      } catch {
        // Not the answer the contract promises: said below like any other fault of the server.
      }
      failed(500);
    };
    request.onerror = () => failed(0);
    request.ontimeout = () => failed(0);
    request.onabort = () => {
      aborted = true;
      failed(0);
    };
  });
  request.open('POST', `${familyApiUrl(token)}/uploads`);
  request.withCredentials = false;
  request.setRequestHeader('Accept', 'application/json');
  request.send(form);
  return { done, abort: () => request.abort() };
}
