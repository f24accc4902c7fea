import { z } from 'zod';
import { hmacOf, SIGNATURE_HEADER, verifySignature } from '../form/form-webhook';
import { parseWith, readJson, refusal, textOrNull } from './delivery-body';
import type { ProviderAdapter, ProviderAnswer, ProviderFile } from './provider';

/**
 * Google Forms cannot call a webhook by itself: the Apps Script shipped in scripts/google-forms/clearbase.gs,
 * pasted into the form's script editor, posts each response to `POST /api/intake/google`, signed like
 * Clearbase's own webhook (`X-Clearbase-Signature: sha256=<hex HMAC-SHA256 of the raw body>`). Uploaded
 * files are read from Drive by the script and travel in the body, base64-encoded, so nothing is downloaded.
 */

const MAX_FILES_PER_ANSWER = 10;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const ZGoogleFile = z.object({
  filename: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
  mimeType: z.string().max(200).optional(),
  contentBase64: z
    .string()
    .transform((value) => value.replace(/\s+/g, ''))
    .refine((value) => value !== '' && BASE64.test(value), 'must be the file in base64'),
});

const ZGoogleAnswer = z.object({
  // Apps Script gives an item's id as a number; the script sends it as text, either is taken.
  key: z.union([z.string().trim().min(1, 'is required').max(200), z.number().int()]).transform(String),
  label: z.string().max(1000, 'must be at most 1000 characters'),
  value: z.string().max(10_000, 'must be at most 10000 characters').nullable().optional(),
  files: z.array(ZGoogleFile).max(MAX_FILES_PER_ANSWER, `must be at most ${MAX_FILES_PER_ANSWER} files`).optional(),
});

/** What clearbase.gs posts for one form response. */
export const ZGoogleDelivery = z.object({
  responseId: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  timestamp: z.string().max(100).optional(),
  answers: z.array(ZGoogleAnswer).max(500, 'must be at most 500 answers'),
});
export type GoogleDelivery = z.input<typeof ZGoogleDelivery>;

export const googleAdapter: ProviderAdapter = {
  id: 'google',
  authKind: 'signature',
  verify(request, secret) {
    if (secret === '') return false;
    return verifySignature(request.headers[SIGNATURE_HEADER], hmacOf(secret, request.rawBody));
  },
  parse(request) {
    const body = parseWith(ZGoogleDelivery, readJson(request, 'Google Forms'), 'Google Forms');
    const seen = new Set<string>();
    const answers = body.answers.map((answer): ProviderAnswer => {
      if (seen.has(answer.key)) throw refusal(`The Google Forms delivery names the question ${answer.key} twice.`);
      seen.add(answer.key);
      const files = (answer.files ?? []).map((file): ProviderFile => ({ kind: 'inline', content: Buffer.from(file.contentBase64, 'base64'), filename: file.filename }));
      return { key: answer.key, label: answer.label.trim(), value: files.length > 0 ? null : textOrNull(answer.value), files };
    });
    return { externalId: body.responseId, answers };
  },
  fileHosts: [],
};
