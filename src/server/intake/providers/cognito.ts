import { z } from 'zod';
import { labelFromFieldName, namePartLabel, parseWith, readJson, refusal, sameSecret, textOrNull } from './delivery-body';
import type { ProviderAdapter, ProviderAnswer, ProviderFile } from './provider';

/**
 * Cognito Forms' "Post JSON data to a website" (form Settings → Submission Settings, Submit Entry Endpoint)
 * posts each new entry as JSON (https://www.cognitoforms.com/support/66/data-integration/webhooks). Each
 * field is a property named after its label in PascalCase ("Parent/guardian e-mail" → "ParentGuardianEmail"),
 * so the label is read back from the name; a Name field is `{ First, Last, FirstAndLast, … }`, an Address
 * `{ Line1, …, FullAddress }`, a date `YYYY-MM-DD`, a Yes/No field a boolean, a choice list an array of
 * texts, a File Upload field an array of `{ ContentType, Id, Name, Size, File }` where `File` is a link
 * valid for about 30 minutes. A Section is an object of its own fields. The entry's id is `Id`
 * ("<form>-<entry number>"), with `Entry: { Number, DateCreated, … }` and `Form: { Id, Name, … }` beside it.
 * Cognito cannot sign, so the secret is the token of the webhook address.
 */

/** Entry details and Cognito's own properties: not questions. */
const NOT_QUESTIONS = new Set(['Form', 'Entry', 'Id', 'Order']);

const ZCognitoEntry = z
  .object({
    Id: z.union([z.string().trim().min(1).max(200), z.number()]).optional(),
    Form: z.object({ Id: z.union([z.string(), z.number()]).optional() }).loose().optional(),
    Entry: z.object({ Number: z.union([z.number(), z.string()]).optional() }).loose().optional(),
  })
  .loose();

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

function isCognitoFile(value: unknown): value is Fields {
  return isObject(value) && typeof value['File'] === 'string' && ('ContentType' in value || 'Name' in value);
}

const isName = (value: Fields) => 'FirstAndLast' in value || ('First' in value && 'Last' in value);
const isAddress = (value: Fields) => 'FullAddress' in value || 'Line1' in value;

const text = (value: unknown): string | null => (typeof value === 'string' ? textOrNull(value) : typeof value === 'number' ? String(value) : null);

/** How deep sections within sections are read. */
const MAX_SECTION_DEPTH = 4;

/** The answers of one object of fields (the entry itself at depth 0, or a section within it). */
function answersOf(fields: Fields, keyPrefix: string, depth: number): ProviderAnswer[] {
  const answers: ProviderAnswer[] = [];
  const top = depth === 0;
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith('$') || (top && NOT_QUESTIONS.has(name))) continue;
    const key = `${keyPrefix}${name}`;
    const label = labelFromFieldName(name);
    const answer = (v: string | null, files: ProviderFile[] = []): ProviderAnswer => ({ key, label, value: v, files });

    if (value === null || value === undefined || typeof value === 'string' || typeof value === 'number') {
      answers.push(answer(text(value)));
    } else if (typeof value === 'boolean') {
      answers.push(answer(value ? 'Yes' : 'No'));
    } else if (Array.isArray(value)) {
      if (value.length > 0 && value.every(isCognitoFile)) {
        const files = value.map((file, index): ProviderFile => ({
          kind: 'url',
          url: text(file['File']) ?? '',
          filename: text(file['Name']) ?? `${name}-${index + 1}`,
        }));
        answers.push(answer(null, files));
      } else if (value.every((item) => typeof item === 'string' || typeof item === 'number')) {
        answers.push(answer(textOrNull(value.map(String).join(', '))));
      }
      // A repeating section (an array of objects) describes several people or items; it is not read.
    } else if (!isObject(value)) {
      continue;
    } else if (isName(value)) {
      const first = text(value['First']);
      const last = text(value['Last']);
      answers.push(answer(text(value['FirstAndLast']) ?? textOrNull([first, last].filter((part) => part !== null).join(' '))));
      answers.push({ key: `${key}.First`, label: namePartLabel(label, 'first'), value: first, files: [] });
      answers.push({ key: `${key}.Last`, label: namePartLabel(label, 'last'), value: last, files: [] });
    } else if (isAddress(value)) {
      const parts = ['Line1', 'Line2', 'City', 'State', 'PostalCode', 'Country'].map((part) => text(value[part])).filter((part) => part !== null);
      answers.push(answer(text(value['FullAddress']) ?? textOrNull(parts.join(', '))));
    } else if (depth < MAX_SECTION_DEPTH) {
      answers.push(...answersOf(value, `${key}.`, depth + 1));
    }
  }
  return answers;
}

export const cognitoAdapter: ProviderAdapter = {
  id: 'cognito',
  authKind: 'token',
  verify(request, secret) {
    return sameSecret(request.token, secret);
  },
  parse(request) {
    const json = readJson(request, 'Cognito Forms');
    if (!isObject(json)) throw refusal('The Cognito Forms delivery is not an entry: Clearbase expects the JSON object of one entry.');
    const entry = parseWith(ZCognitoEntry, json, 'Cognito Forms');
    const formId = entry.Form?.Id;
    const number = entry.Entry?.Number;
    const externalId =
      entry.Id !== undefined ? String(entry.Id) : formId !== undefined && number !== undefined ? `${String(formId)}-${String(number)}` : undefined;
    if (externalId === undefined) {
      throw refusal('The Cognito Forms delivery has no entry id (Id, or Form.Id with Entry.Number). Post it with "Post JSON data to a website".');
    }
    return { externalId, answers: answersOf(json, '', 0) };
  },
  fileHosts: ['cognitoforms.com'],
};
