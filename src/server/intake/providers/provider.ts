import type { TFormProvider, TProviderAuthKind } from '../../../contract';

/**
 * One form builder's side of `POST /api/intake/{provider}`: how it proves a delivery is genuine, how its
 * body reads, and how its files are fetched. Everything after (mapping answers to the form's fields,
 * downloading, staging, recording, the deliveries log) is shared by every provider (receive-delivery.ts).
 */
export type ProviderAdapter = {
  id: TFormProvider;
  authKind: TProviderAuthKind;
  /**
   * Whether the delivery comes from the holder of `secret`: the provider's signature header over the raw body,
   * its handshake key in the body, or the token of the webhook address (`request.token`). Constant-time.
   */
  verify(request: ProviderRequest, secret: string): boolean;
  /**
   * The delivery's answers, in the provider's own documented shape. A body that is not that shape throws
   * an AppError('VALIDATION_FAILED') saying what is wrong, in words a registrar can act on.
   */
  parse(request: ProviderRequest): ProviderDelivery;
  /**
   * Host names this provider serves its uploaded files from, allowed for its downloads without listing them
   * in FORM_FILE_HOSTS. A name matches itself and its subdomains.
   */
  fileHosts: readonly string[];
  /** Headers a download of one of its files needs, given the download key set in Settings → Integrations (if any). */
  downloadHeaders?(downloadKey: string | undefined, url: URL): Record<string, string>;
};

/** A delivery as it arrived. Header names are lower case. */
export type ProviderRequest = {
  rawBody: Buffer;
  contentType: string;
  headers: Readonly<Record<string, string | undefined>>;
  /** The token of the webhook address (`/api/intake/{provider}/{token}`), for providers that cannot sign. */
  token: string | undefined;
};

/** A file of an answer: a link to download, or (the Google Apps Script) the bytes themselves. */
export type ProviderFile = { kind: 'url'; url: string; filename: string } | { kind: 'inline'; content: Buffer; filename: string };

/**
 * One question of the form and what was answered. `key` is the provider's own id of the question (stable when
 * its label is edited), `label` its text as the form shows it. A file-upload question has `files`; any other
 * has `value` (a choice as its text, a date as the provider wrote it).
 */
export type ProviderAnswer = { key: string; label: string; value: string | null; files: ProviderFile[] };

export type ProviderDelivery = {
  /** The provider's id of this response: a resend of the same response is the same submission. */
  externalId: string;
  answers: ProviderAnswer[];
};
