import { ListTree, LoaderCircle, Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { MAPPED_FIELD_LABELS, MAPPED_FIELDS, type TIntegration, type TIntegrationPatch, type TMappedField } from '../../../../contract';
import { FormError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage } from '@/lib/api-client';
import { BY_LABEL, mappingChoices, mappingFromChoices, mappingProblems, type MappingChoices } from '../integrations-text';

/** Radix Select does not take an empty value: the "find by label" choice is this inside the select. */
const BY_LABEL_OPTION = '__by-label__';

function FieldSelect({
  field,
  value,
  questions,
  error,
  onChange,
  disabled,
}: {
  field: TMappedField;
  value: string;
  questions: TIntegration['lastQuestions'];
  error: string | undefined;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  // A question chosen earlier that the last delivery no longer had stays choosable, so saving keeps it.
  const known = value === BY_LABEL || questions.some((question) => question.key === value);
  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid={`mapping-${field}`}>
      <Label htmlFor={id}>{MAPPED_FIELD_LABELS[field]}</Label>
      <Select value={value === BY_LABEL ? BY_LABEL_OPTION : value} onValueChange={(next) => onChange(next === BY_LABEL_OPTION ? BY_LABEL : next)} disabled={disabled}>
        <SelectTrigger id={id} aria-invalid={error !== undefined} aria-describedby={error ? `${id}-error` : undefined} className="min-w-0">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={BY_LABEL_OPTION}>Find by label: “{MAPPED_FIELD_LABELS[field]}”</SelectItem>
          {known ? null : <SelectItem value={value}>{value} (not in the last delivery)</SelectItem>}
          {questions.map((question) => (
            <SelectItem key={question.key} value={question.key}>
              {question.label || '(no label)'} ({question.key})
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {error ? (
        <p id={`${id}-error`} className="text-xs break-words text-destructive-soft-foreground">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Which question of the provider's form fills each field: one of the last delivery's questions, or the field's
 * own label (found case- and punctuation-insensitively). Saved as a whole.
 */
export function MappingSection({
  integration,
  save,
  pending,
}: {
  integration: TIntegration;
  save: (patch: TIntegrationPatch) => Promise<unknown>;
  pending: boolean;
}) {
  const headingId = useId();
  const [choices, setChoices] = useState<MappingChoices>(() => mappingChoices(integration.mapping));
  const [problems, setProblems] = useState<Partial<Record<TMappedField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  // One choice per key, should a delivery name a question twice.
  const questions = integration.lastQuestions.filter((question, index, all) => all.findIndex((other) => other.key === question.key) === index);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus('');
    setFailure(null);
    const found = mappingProblems(choices);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setFailure('One question is chosen for two fields. Choose a different question for the fields marked below.');
      return;
    }
    try {
      await save({ mapping: mappingFromChoices(choices) });
      setStatus('Question mapping saved.');
    } catch (error) {
      setFailure(getErrorMessage(error, 'The question mapping could not be saved. Please try again.'));
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3" data-testid="mapping-section">
      <h4 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <ListTree className="size-4 text-muted-foreground" aria-hidden="true" />
        Question mapping
      </h4>
      <p className="text-sm text-muted-foreground">
        {questions.length > 0
          ? `Which question of the ${integration.name} form fills each field. The choices are the questions of the last delivery.`
          : `No delivery yet: each field is found by its label. Once ${integration.name} sends a delivery, its questions can be chosen here.`}
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <fieldset className="grid gap-4 md:grid-cols-2" disabled={pending}>
          <legend className="sr-only">Question for each field</legend>
          {MAPPED_FIELDS.map((field) => (
            <FieldSelect
              key={field}
              field={field}
              value={choices[field]}
              questions={questions}
              error={problems[field]}
              disabled={pending}
              onChange={(value) => {
                setChoices((current) => ({ ...current, [field]: value }));
                setProblems((current) => ({ ...current, [field]: undefined }));
                setStatus('');
              }}
            />
          ))}
        </fieldset>
        <FormError message={failure} testId="mapping-error" />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" size="sm" disabled={pending}>
            {pending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            Save mapping
          </Button>
          <p role="status" className="text-sm text-success-soft-foreground" data-testid="mapping-status">
            {status}
          </p>
        </div>
      </form>
    </section>
  );
}
