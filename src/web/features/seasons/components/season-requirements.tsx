import { Plus, Save, Trash2, Wand2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  AGE_DATE_SPORTS,
  ageDateFor,
  DOC_TYPE_LABELS,
  divisionAgesText,
  littleLeagueResidencyRule,
  MAX_MINIMISE_DAYS,
  MAX_REQUIRED_DOCUMENTS,
  MAX_REQUIREMENT_MONTHS,
  MAX_RESIDENCY_GROUP_LENGTH,
  MAX_RESIDENCY_GROUPS,
  REQUIREMENT_LASTS,
  REQUIREMENT_LASTS_LABELS,
  type TRequirementRule,
  type TSeason,
  type TSeasonRequirements,
} from '../../../../contract';
import { FormDialogFooter, FormError, FormField } from '@/components/form-field';
import { LabelledNativeSelect } from '@/components/labelled-native-select';
import { ListSkeleton } from '@/components/list-skeleton';
import { LoadError } from '@/components/load-error';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast-store';
import { useSaveSeasonRequirements, useSeasonRequirements } from '../api';
import {
  localRequirementProblems,
  requirementsBody,
  requirementsForm,
  ruleForm,
  serverRequirementErrors,
  type RequirementErrors,
  type RequirementsForm,
  type RuleForm,
} from '../requirements-form';

const RESIDENCY = 'residency';

/** A message under a field, tied to it by id; `name` names it for tests. */
function FieldMessage({ id, name, message }: { id: string; name: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-xs break-words text-destructive-soft-foreground" data-testid={`error-${name}`}>
      {message}
    </p>
  );
}

/** A whole number typed as text (the phone shows its number keys), with its label and its message. */
function NumberField({
  fieldKey,
  label,
  value,
  onChange,
  error,
  idOf,
  maxLength = 3,
  className,
}: {
  fieldKey: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  idOf: (key: string) => string;
  maxLength?: number;
  className?: string;
}) {
  return (
    <FormField name={fieldKey} label={label} required={false} id={idOf(fieldKey)} error={error} className={className}>
      {(control) => <Input {...control} inputMode="numeric" autoComplete="off" maxLength={maxLength} value={value} onChange={(event) => onChange(event.target.value)} />}
    </FormField>
  );
}

/** Who reads the rules but may not change them: the rules in words. */
function RequirementsSummary({ season, requirements }: { season: TSeason; requirements: TSeasonRequirements }) {
  const lasts = (rule: TRequirementRule) =>
    rule.lasts === 'months' ? `${rule.months ?? 0} months from the document’s date` : REQUIREMENT_LASTS_LABELS[rule.lasts].toLowerCase();
  const details = (rule: TRequirementRule) => {
    if (!rule.required) return 'Not required';
    const parts = [`Required; an approval lasts ${lasts(rule)}`];
    if (rule.documents > 1 || rule.groups.length > 0) {
      parts.push(`${rule.documents} document${rule.documents === 1 ? '' : 's'}${rule.groups.length > 0 ? `, each from a different group: ${rule.groups.join('; ')}` : ''}`);
    }
    if (rule.datedFrom || rule.datedTo) parts.push(`dated ${rule.datedFrom ? `from ${formatDate(rule.datedFrom)}` : ''}${rule.datedFrom && rule.datedTo ? ' ' : ''}${rule.datedTo ? `to ${formatDate(rule.datedTo)}` : ''}`);
    return parts.join('. ');
  };
  const days = requirements.removeVerifiedBirthCertificateFilesAfterDays;
  const rows: Array<[string, ReactNode]> = [
    ...requirements.rules.map((rule): [string, ReactNode] => [DOC_TYPE_LABELS[rule.docType], details(rule)]),
    ['League age is counted on', formatDate(requirements.ageDate)],
    ...season.divisions.map((division): [string, ReactNode] => [`${division} division`, divisionAgesText(requirements.divisionAges[division])]),
    ['Birth certificate files', days === null ? 'Kept after verification' : `Deleted ${days} day${days === 1 ? '' : 's'} after verification`],
  ];
  return (
    <div className="flex flex-col gap-4" data-testid="season-requirements-summary">
      <ReadOnlyNote>Only a league admin can change the requirements.</ReadOnlyNote>
      <dl className="flex flex-col gap-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex min-w-0 flex-col gap-0.5 sm:flex-row sm:gap-2">
            <dt className="shrink-0 text-muted-foreground sm:w-48">{label}</dt>
            <dd className="min-w-0 break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The residency groups: each a name that can be changed or removed, up to MAX_RESIDENCY_GROUPS. */
function GroupsEditor({
  index,
  groups,
  onChange,
  errors,
  idOf,
}: {
  index: number;
  groups: string[];
  onChange: (groups: string[]) => void;
  errors: RequirementErrors;
  idOf: (key: string) => string;
}) {
  const listKey = `rules.${index}.groups`;
  const hintId = `${idOf(listKey)}-hint`;
  const listRef = useRef<HTMLDivElement>(null);
  const focusInput = (at: number) => requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLTextAreaElement>('textarea')[at]?.focus());
  return (
    <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={errors[listKey] ? `${idOf(listKey)}-error` : hintId}>
      <legend className="mb-2 text-sm leading-none font-medium">Groups</legend>
      <p id={hintId} className="text-xs text-muted-foreground">
        With groups, each document needed comes from a different group. None: any documents count.
      </p>
      <div ref={listRef} className="flex flex-col gap-2" data-testid="residency-groups">
        {groups.map((group, groupIndex) => {
          const key = `${listKey}.${groupIndex}`;
          const id = idOf(key);
          return (
            // A group is its place in the list: its name changes as it is typed.
            <div key={groupIndex} className="flex min-w-0 flex-col gap-1">
              <div className="flex min-w-0 items-start gap-2">
                <Label htmlFor={id} className="sr-only">
                  Group {groupIndex + 1}
                </Label>
                <Textarea
                  id={id}
                  value={group}
                  rows={2}
                  className="min-h-9 resize-none field-sizing-content"
                  maxLength={MAX_RESIDENCY_GROUP_LENGTH}
                  autoComplete="off"
                  aria-invalid={errors[key] !== undefined}
                  aria-describedby={errors[key] ? `${id}-error` : undefined}
                  // A name is one line: a line break typed or pasted becomes a space.
                  onChange={(event) => onChange(groups.map((name, at) => (at === groupIndex ? event.target.value.replace(/\s*\n\s*/g, ' ') : name)))}
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove group ${groupIndex + 1}`}
                  onClick={() => {
                    onChange(groups.filter((_name, at) => at !== groupIndex));
                    focusInput(Math.max(0, groupIndex - 1));
                  }}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
              <FieldMessage id={`${id}-error`} name={key} message={errors[key]} />
            </div>
          );
        })}
      </div>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="self-start"
        disabled={groups.length >= MAX_RESIDENCY_GROUPS}
        onClick={() => {
          onChange([...groups, '']);
          focusInput(groups.length);
        }}
      >
        <Plus aria-hidden="true" />
        Add group
      </Button>
      <FieldMessage id={`${idOf(listKey)}-error`} name={listKey} message={errors[listKey]} />
    </fieldset>
  );
}

/** One document type's rule: required, how long an approval lasts, and for residency how many from which groups. */
function RuleFields({
  index,
  rule,
  year,
  onChange,
  errors,
  idOf,
}: {
  index: number;
  rule: RuleForm;
  year: number;
  onChange: (rule: RuleForm, changed: readonly string[]) => void;
  errors: RequirementErrors;
  idOf: (key: string) => string;
}) {
  const [presetNote, setPresetNote] = useState('');
  const key = (field: string) => `rules.${index}.${field}`;
  const set = (patch: Partial<RuleForm>) => onChange({ ...rule, ...patch }, Object.keys(patch).map(key));
  const date = (field: 'datedFrom' | 'datedTo', label: string) => (
    <FormField name={key(field)} label={label} required={false} id={idOf(key(field))} error={errors[key(field)]}>
      {(control) => <Input {...control} type="date" value={rule[field]} onChange={(event) => set({ [field]: event.target.value })} />}
    </FormField>
  );
  return (
    <fieldset className="flex min-w-0 flex-col gap-4 rounded-md border p-4" data-testid={`rule-${rule.docType}`}>
      <legend className="px-1 text-sm font-semibold">{DOC_TYPE_LABELS[rule.docType]}</legend>
      <Label className="font-normal">
        <Checkbox checked={rule.required} onCheckedChange={(checked) => set({ required: checked === true })} />
        Required
      </Label>
      <div className="grid min-w-0 gap-4 sm:grid-cols-2">
        <LabelledNativeSelect
          id={idOf(key('lasts'))}
          label="An approval lasts"
          value={rule.lasts}
          options={REQUIREMENT_LASTS}
          labels={REQUIREMENT_LASTS_LABELS}
          onChange={(lasts) => set({ lasts, months: lasts === 'months' && rule.months === '' ? '12' : rule.months })}
        />
        {rule.lasts === 'months' ? (
          <NumberField fieldKey={key('months')} label={`Months (1–${MAX_REQUIREMENT_MONTHS})`} value={rule.months} onChange={(months) => set({ months })} error={errors[key('months')]} idOf={idOf} maxLength={2} />
        ) : null}
      </div>
      {rule.docType === RESIDENCY ? (
        <>
          <NumberField
            fieldKey={key('documents')}
            label={`Documents needed (1–${MAX_REQUIRED_DOCUMENTS})`}
            value={rule.documents}
            onChange={(documents) => set({ documents })}
            error={errors[key('documents')]}
            idOf={idOf}
            maxLength={1}
            className="sm:max-w-[calc(50%-0.5rem)]"
          />
          <GroupsEditor index={index} groups={rule.groups} onChange={(groups) => onChange({ ...rule, groups }, [key('groups'), ...rule.groups.map((_g, at) => `${key('groups')}.${at}`)])} errors={errors} idOf={idOf} />
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            {date('datedFrom', 'Dated from')}
            {date('datedTo', 'Dated to')}
          </div>
          <div className="flex flex-col gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="self-start whitespace-normal"
              onClick={() => {
                const preset = littleLeagueResidencyRule(year);
                onChange(ruleForm(preset), Object.keys(errors).filter((error) => error.startsWith(`rules.${index}.`)));
                setPresetNote(
                  `Little League’s rule is filled in: ${preset.documents} documents, one from each group, dated ${formatDate(preset.datedFrom ?? '')} to ${formatDate(preset.datedTo ?? '')}. Save to keep it.`,
                );
              }}
            >
              <Wand2 aria-hidden="true" />
              Use Little League’s residency rule
            </Button>
            <p className="text-xs text-muted-foreground" aria-live="polite" data-testid="residency-preset-note">
              {presetNote}
            </p>
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

/** The rules as an admin changes them; Save sends them all (PUT) and shows the server's messages under the fields. */
function RequirementsEditor({ season, initial, onDone }: { season: TSeason; initial: RequirementsForm; onDone: () => void }) {
  const save = useSaveSeasonRequirements();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<RequirementErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = `requirements-${season.id}`;
  const idOf = (key: string) => `${baseId}-${key.replace(/\./g, '-')}`;

  const update = (next: RequirementsForm, changed: readonly string[]) => {
    setForm(next);
    setErrors((current) => {
      if (!changed.some((key) => current[key] !== undefined)) return current;
      const kept = { ...current };
      for (const key of changed) delete kept[key];
      return kept;
    });
  };
  // After a refused save, focus goes to the first field with a message, once it shows and the fields are enabled again.
  const [focusRequest, setFocusRequest] = useState(0);
  const focusFirstInvalid = () => setFocusRequest((count) => count + 1);
  const pending = save.isPending;
  useEffect(() => {
    if (focusRequest > 0 && !pending) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest, pending]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const problems = localRequirementProblems(form);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      focusFirstInvalid();
      return;
    }
    setErrors({});
    save.mutate(
      { id: season.id, requirements: requirementsBody(form) },
      {
        onSuccess: () => {
          toast({ title: 'Requirements saved.', description: `Every player’s status for ${season.name} was recomputed.` });
          onDone();
        },
        onError: (error) => {
          const { fields, message } = serverRequirementErrors(isApiError(error) ? error.body : undefined, getErrorMessage(error, 'The requirements could not be saved. Please try again.'), form);
          setErrors(fields);
          setFormError(message);
          focusFirstInvalid();
        },
      },
    );
  }

  const ages = form.divisionAges;
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex min-w-0 flex-col gap-6" aria-describedby={formError ? `${baseId}-form-error` : undefined} data-testid="season-requirements-form">
      <FormError message={formError} id={`${baseId}-form-error`} testId="requirements-form-error" />
      <fieldset className="flex min-w-0 flex-col gap-4" disabled={save.isPending}>
        <legend className="sr-only">Requirements for {season.name}</legend>
        {form.rules.map((rule, index) => (
          <RuleFields
            key={rule.docType}
            index={index}
            rule={rule}
            year={season.year}
            errors={errors}
            idOf={idOf}
            onChange={(next, changed) => update({ ...form, rules: form.rules.map((r, at) => (at === index ? next : r)) }, changed)}
          />
        ))}

        <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border p-4">
          <legend className="px-1 text-sm font-semibold">League age</legend>
          <FormField name="ageDate" label="League age is counted on" required id={idOf('ageDate')} error={errors.ageDate}>
            {(control) => (
              <Input {...control} type="date" className="sm:max-w-[calc(50%-0.5rem)]" value={form.ageDate} onChange={(event) => update({ ...form, ageDate: event.target.value }, ['ageDate'])} />
            )}
          </FormField>
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Age day of a sport">
            {AGE_DATE_SPORTS.map(({ sport, label }) => {
              const day = ageDateFor(sport, season.year);
              return (
                <Button key={sport} type="button" variant={form.ageDate === day ? 'secondary' : 'outline'} size="sm" aria-pressed={form.ageDate === day} onClick={() => update({ ...form, ageDate: day }, ['ageDate'])}>
                  {label}
                  <span className="text-muted-foreground">{formatDate(day)}</span>
                </Button>
              );
            })}
          </div>

          <fieldset className="flex min-w-0 flex-col gap-3">
            <legend className="mb-1 text-sm font-medium">Division ages</legend>
            <p className="text-xs text-muted-foreground">League age on the day above, both ends included. Leave a box blank for no bound.</p>
            {season.divisions.map((division) => {
              const line = ages[division] ?? { min: '', max: '' };
              const setAge = (end: 'min' | 'max', value: string) =>
                update({ ...form, divisionAges: { ...ages, [division]: { ...line, [end]: value } } }, [`divisionAges.${division}.${end}`, `divisionAges.${division}`]);
              return (
                <fieldset key={division} className="grid min-w-0 grid-cols-2 gap-3 sm:grid-cols-[6rem_1fr_1fr] sm:items-start" data-testid={`division-ages-${division}`}>
                  <legend className="sr-only">{division} division</legend>
                  <span className="col-span-2 text-sm font-medium sm:col-span-1 sm:pt-8" aria-hidden="true">
                    {division}
                  </span>
                  <NumberField fieldKey={`divisionAges.${division}.min`} label="Youngest" value={line.min} onChange={(value) => setAge('min', value)} error={errors[`divisionAges.${division}.min`]} idOf={idOf} maxLength={2} />
                  <NumberField
                    fieldKey={`divisionAges.${division}.max`}
                    label="Oldest"
                    value={line.max}
                    onChange={(value) => setAge('max', value)}
                    error={errors[`divisionAges.${division}.max`] ?? errors[`divisionAges.${division}`]}
                    idOf={idOf}
                    maxLength={2}
                  />
                </fieldset>
              );
            })}
          </fieldset>
        </fieldset>

        <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border p-4">
          <legend className="px-1 text-sm font-semibold">Birth certificate files</legend>
          <Label className="font-normal">
            <Checkbox checked={form.removeFiles} onCheckedChange={(checked) => update({ ...form, removeFiles: checked === true }, ['removeVerifiedBirthCertificateFilesAfterDays'])} />
            Delete birth certificate files after verification
          </Label>
          <p className="text-xs text-muted-foreground">The verification stays: who verified it, when, and the date of birth it showed.</p>
          {form.removeFiles ? (
            <NumberField
              fieldKey="removeVerifiedBirthCertificateFilesAfterDays"
              label={`After how many days (1–${MAX_MINIMISE_DAYS})`}
              value={form.removeAfterDays}
              onChange={(removeAfterDays) => update({ ...form, removeAfterDays }, ['removeVerifiedBirthCertificateFilesAfterDays'])}
              error={errors.removeVerifiedBirthCertificateFilesAfterDays}
              idOf={idOf}
              maxLength={4}
              className="sm:max-w-[calc(50%-0.5rem)]"
            />
          ) : null}
        </fieldset>
      </fieldset>
      <FormDialogFooter pending={save.isPending} icon={Save} label="Save requirements" pendingLabel="Saving…" />
    </form>
  );
}

/**
 * The inside of the Requirements dialog of a season: the rules loaded, then the form for who may manage
 * settings, or the rules in words for anyone else.
 */
export function SeasonRequirements({ season, canManage, onDone }: { season: TSeason; canManage: boolean; onDone: () => void }) {
  const requirements = useSeasonRequirements(season.id);
  if (requirements.isPending) return <ListSkeleton label="Loading the requirements" rows={4} leading="hidden" lines={['h-4 w-40', 'h-4 w-64']} trailing="hidden" />;
  if (requirements.isError) {
    return (
      <LoadError title="Unable to load the requirements" detail={getErrorMessage(requirements.error)} onRetry={() => void requirements.refetch()} retrying={requirements.isFetching} />
    );
  }
  if (!canManage) return <RequirementsSummary season={season} requirements={requirements.data} />;
  return <RequirementsEditor key={season.id} season={season} initial={requirementsForm(requirements.data, season.divisions)} onDone={onDone} />;
}
