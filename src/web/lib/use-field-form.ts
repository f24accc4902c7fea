import { useId, useRef, useState } from 'react';

/**
 * The state of a form whose fields are text (selects hold '' until chosen) and carry their own messages:
 * the values, a message per field, one message for the form, and the ids that tie each field to its label.
 * Editing a field drops its message; it is checked again on submit.
 */
export function useFieldForm<F extends string>(initial: Record<F, string>) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = (field: F) => `${id}-${field}`;

  /** After React has shown the error (aria-invalid), so the screen reader announces it with the field. */
  const focusField = (field: F | undefined) => {
    if (!field) return;
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(field))}`)?.focus());
  };

  const setValue = (field: F, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  return { id, values, errors, setErrors, formError, setFormError, formRef, fieldId, focusField, setValue };
}
