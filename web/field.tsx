// A labelled form field whose error, when it has one, is shown under it and tied to it
// (aria-invalid, aria-describedby), so a screen reader reads the field's problem with the field;
// and a form's submission, which turns the problem it ends with into those errors.
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, type Problem } from './api';

interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  /**
   * The error is also announced when it appears (`role="alert"`): for a field that keeps the
   * focus while its form is sent (Enter in it), whose new error a screen reader would not read.
   */
  announceError?: boolean;
  children: (describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}

export function Field({ id, label, error, hint, announceError, children }: FieldProps) {
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
        <p id={`${id}-error`} class="error" role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The input attributes the page's fields use. */
interface InputAttributes {
  type?: 'text' | 'email' | 'password' | 'url' | 'number';
  name?: string;
  autocomplete?: string;
  required?: boolean;
  placeholder?: string;
  inputMode?: 'text' | 'url' | 'numeric';
  min?: number;
  max?: number;
  step?: number;
}

interface TextFieldProps extends InputAttributes {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  announceError?: boolean;
}

/** A labelled text input (any type but checkbox and radio), its hint and its error. */
export function TextField({
  id,
  label,
  value,
  onValue,
  error,
  hint,
  announceError,
  ...input
}: TextFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      error={error}
      announceError={announceError}
      {...(hint ? { hint } : {})}
    >
      {(describedBy, invalid) => {
        // Preact types an input's attributes as a union by `type`, which a `type` that is
        // itself a union cannot match member by member: the attributes are one object here.
        const attributes = {
          ...input,
          id,
          value,
          onInput: (event: { currentTarget: HTMLInputElement }) =>
            onValue(event.currentTarget.value),
          'aria-describedby': describedBy,
          'aria-invalid': invalid,
        } as InputHTMLAttributes<HTMLInputElement>;
        return <input {...attributes} />;
      }}
    </Field>
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

/** A labelled choice among fixed options (a `<select>`), its hint and its error. */
export function SelectField({
  id,
  label,
  options,
  value,
  onValue,
  error,
  hint,
}: {
  id: string;
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      {(describedBy, invalid) => (
        <select
          id={id}
          value={value}
          onChange={(event) => onValue(event.currentTarget.value)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A model of this deployment to choose (the page's settings list them). */
export function ModelField({
  models,
  ...field
}: {
  id: string;
  label: string;
  models: readonly string[];
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
}) {
  return <SelectField {...field} options={models.map((name) => ({ value: name, label: name }))} />;
}

/** A form's errors by field name (`form` for the form as a whole). */
export type Errors = Record<string, string>;

/**
 * One error at a time: the first a problem names (fields in the form's order, then the form's),
 * so the person reads and fixes one thing, then the next.
 */
export function firstError(errors: Errors): Errors {
  const first = Object.entries(errors).find(([, message]) => message !== '');
  return first ? { [first[0]]: first[1] } : {};
}

/**
 * A form's submission: busy while it runs, and the error of the problem it ended with (one, by
 * its field). Any other failure (a refused token) goes to `onFailure`, or is thrown without one.
 * `clear` takes the error away when the person moves on (edits a field, turns to another form).
 */
export function useSubmit(
  act: () => Promise<void>,
  errorsOf: (problem: Problem) => Errors,
  onFailure?: (error: unknown) => void,
) {
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  /** Sends the form (an event's, or the page's own doing without one). */
  const submit = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await act();
    } catch (error) {
      if (error instanceof ApiError) setErrors(firstError(errorsOf(error.problem)));
      else if (onFailure) onFailure(error);
      else throw error;
    } finally {
      setBusy(false);
    }
  };
  const clear = () => setErrors((shown) => (Object.keys(shown).length === 0 ? shown : {}));
  /** A field's setter that also takes the form's error away: the person has moved on. */
  const editing =
    (set: (value: string) => void) =>
    (value: string): void => {
      set(value);
      clear();
    };
  return { errors, busy, submit, clear, editing };
}
