// A labelled form field whose error, when it has one, is shown under it and tied to it
// (aria-invalid, aria-describedby), so a screen reader reads the field's problem with the field.
import type { ComponentChildren } from 'preact';

interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}

export function Field({ id, label, error, hint, children }: FieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {children(described || undefined, Boolean(error))}
      {error && (
        <p id={`${id}-error`} class="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A problem with the action as a whole, announced when it appears. */
export function ActionError({ message }: { message: string | undefined }) {
  return (
    <p class="error" role="alert">
      {message ?? ''}
    </p>
  );
}
