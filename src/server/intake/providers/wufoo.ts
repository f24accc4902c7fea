import { z } from 'zod';
import { fileNameOf, httpUrl, namePartLabel, parseWith, readForm, refusal, sameSecret, textOrNull } from './delivery-body';
import type { ProviderAdapter, ProviderAnswer, ProviderFile } from './provider';

/**
 * Wufoo's WebHook integration (Form Manager → Integrations → WebHook,
 * http://help.wufoo.com/articles/en_US/SurveyMonkeyArticleType/Webhooks) posts each entry as
 * `application/x-www-form-urlencoded`: every answer under its field id (`Field1`, `Field2`, …, the ids of
 * the Fields API, https://wufoo.github.io/docs/), `EntryId`, `DateCreated`, `CreatedBy`, the
 * `HandshakeKey` the registrar chose, and, when "Include Field and Form Structures" is ticked,
 * `FieldStructure` (JSON `{ Fields: [{ Title, ID, Type, SubFields: [{ ID, Label }] }] }`) and
 * `FormStructure` (JSON `{ Name, Hash, … }`). The structure gives each question its title; without it the
 * questions are labelled by their ids and mapped in Settings → Integrations. A Name field's parts (First,
 * Last) are fields of their own, the first sharing the field's id; a File Upload answers
 * `name.pdf (https://<account>.wufoo.com/cabinet/…)`, with the link alone in `<id>-url`.
 */

const FIELD_ID = /^Field\d+$/;

const ZWufooFieldStructure = z.object({
  Fields: z
    .array(
      z.object({
        ID: z.string(),
        Title: z.string().default(''),
        Type: z.string().default('text'),
        SubFields: z.array(z.object({ ID: z.string(), Label: z.string().default('') })).optional(),
      }),
    )
    .max(1000),
});
type WufooField = z.infer<typeof ZWufooFieldStructure>['Fields'][number];

const ZWufooFormStructure = z.object({ Hash: z.string().optional() });

function jsonField<T>(form: URLSearchParams, name: string, schema: z.ZodType<T>): T | undefined {
  const raw = form.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw refusal(`The Wufoo delivery's ${name} is not JSON.`);
  }
  return parseWith(schema, json, `Wufoo ${name}`);
}

/** A File Upload's files: the `<id>-url` link, else the link inside "name (link)", else a bare link. */
function filesOf(form: URLSearchParams, id: string): ProviderFile[] {
  const value = form.get(id)?.trim() ?? '';
  const inParentheses = /^(.*?)\s*\((https?:\/\/[^\s)]+)\)$/.exec(value);
  const link = httpUrl(form.get(`${id}-url`) ?? '') ?? httpUrl(inParentheses?.[2] ?? '') ?? httpUrl(value);
  if (link === undefined) return [];
  const named = textOrNull(inParentheses?.[1]);
  return [{ kind: 'url', url: link.toString(), filename: named ?? fileNameOf(link, `${id}-file`) }];
}

/** A date as Wufoo wrote it: YYYY-MM-DD stays, YYYYMMDD becomes YYYY-MM-DD. */
function dateText(value: string | null): string | null {
  const compact = value === null ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : value;
}

function answersOfField(form: URLSearchParams, field: WufooField): ProviderAnswer[] {
  const title = field.Title.trim() === '' ? field.ID : field.Title.trim();
  const valueOf = (id: string) => textOrNull(form.get(id));
  const subFields = field.SubFields ?? [];
  switch (field.Type) {
    case 'file':
      return [{ key: field.ID, label: title, value: null, files: filesOf(form, field.ID) }];
    case 'date':
      return [{ key: field.ID, label: title, value: dateText(valueOf(field.ID)), files: [] }];
    case 'shortname':
    case 'name': {
      if (subFields.length === 0) return [{ key: field.ID, label: title, value: valueOf(field.ID), files: [] }];
      const parts = subFields.map((sub): ProviderAnswer => {
        const label = /^first$/i.test(sub.Label) ? namePartLabel(title, 'first') : /^last$/i.test(sub.Label) ? namePartLabel(title, 'last') : `${title} ${sub.Label}`.trim();
        return { key: sub.ID, label, value: valueOf(sub.ID), files: [] };
      });
      const first = parts.find((part) => /first name$/i.test(part.label))?.value ?? null;
      const last = parts.find((part) => /last name$/i.test(part.label))?.value ?? null;
      // The first part carries the field's own id, so the whole name gets a key of its own.
      const whole: ProviderAnswer = { key: `${field.ID}-name`, label: title, value: textOrNull([first, last].filter((part) => part !== null).join(' ')), files: [] };
      return [whole, ...parts];
    }
    case 'checkbox':
      return [{ key: field.ID, label: title, value: textOrNull(subFields.map((sub) => valueOf(sub.ID)).filter((v) => v !== null).join(', ')), files: [] }];
    case 'address':
      return [{ key: field.ID, label: title, value: textOrNull(subFields.map((sub) => valueOf(sub.ID)).filter((v) => v !== null).join(', ')), files: [] }];
    default:
      if (subFields.length > 0) {
        return subFields.map((sub) => ({ key: sub.ID, label: `${title} ${sub.Label}`.trim(), value: valueOf(sub.ID), files: [] }));
      }
      return [{ key: field.ID, label: title, value: valueOf(field.ID), files: [] }];
  }
}

/** Without the structure: each `FieldN` as it came, labelled by its id; a value holding a file link is a file. */
function answersWithoutStructure(form: URLSearchParams): ProviderAnswer[] {
  const ids = [...new Set([...form.keys()].filter((key) => FIELD_ID.test(key)))];
  return ids.map((id) => {
    const files = form.has(`${id}-url`) || /\(https?:\/\/[^\s)]+\)$/.test(form.get(id)?.trim() ?? '') ? filesOf(form, id) : [];
    return { key: id, label: id, value: files.length > 0 ? null : textOrNull(form.get(id)), files };
  });
}

export const wufooAdapter: ProviderAdapter = {
  id: 'wufoo',
  authKind: 'handshake',
  verify(request, secret) {
    return sameSecret(readForm(request).get('HandshakeKey') ?? undefined, secret);
  },
  parse(request) {
    const form = readForm(request);
    const entryId = textOrNull(form.get('EntryId'));
    if (entryId === null || entryId.length > 100) {
      throw refusal('The Wufoo delivery has no EntryId. Check that the WebHook integration, not another service, posts to this address.');
    }
    const structure = jsonField(form, 'FieldStructure', ZWufooFieldStructure);
    const formHash = jsonField(form, 'FormStructure', ZWufooFormStructure)?.Hash;
    // Entry numbers count per form: the form's hash keeps two forms' entry 12 apart.
    const externalId = formHash !== undefined && formHash !== '' ? `${formHash}-${entryId}` : entryId;
    const answers = structure === undefined ? answersWithoutStructure(form) : structure.Fields.filter((field) => FIELD_ID.test(field.ID)).flatMap((field) => answersOfField(form, field));
    return { externalId, answers };
  },
  fileHosts: ['wufoo.com'],
};
