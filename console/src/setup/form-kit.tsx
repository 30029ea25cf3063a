import { type FormEvent, type ReactNode, useCallback, useId, useState } from 'react';
import { plainMessage } from './plain-message.ts';

/** A field's label; a required field's ends with a mark that the form's note explains (styles.css; screen readers hear aria-required). */
function FieldLabel({ id, label, required }: { id: string; label: string; required: boolean | undefined }) {
  return (
    <label htmlFor={id} className={required ? 'required' : undefined}>
      {label}
    </label>
  );
}

/** A labelled input of an uncontrolled form: its value is read from the form's data on submit. */
export function Field({
  label,
  name,
  hint,
  ...input
}: { label: string; name: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={input.required} />
      <input
        id={id}
        name={name}
        type="text"
        aria-describedby={hint ? `${id}-hint` : undefined}
        aria-required={input.required || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="muted hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A day typed as YYYY-MM-DD, as the console writes days everywhere (a browser's date field shows
 * its own language's order, mm/dd/yyyy or dd/mm/yyyy, whatever the console's locale).
 */
export function DayField({
  hint,
  ...field
}: { label: string; name: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field
      inputMode="numeric"
      pattern="\d{4}-\d{2}-\d{2}"
      placeholder="YYYY-MM-DD"
      size={11}
      hint={hint ? `YYYY-MM-DD. ${hint}` : 'YYYY-MM-DD.'}
      {...field}
    />
  );
}

export interface Option {
  value: string;
  label: string;
}

/** Options from values, each shown as written. */
export const optionsOf = <T extends string>(values: readonly T[], label: (v: T) => string = (v) => v): Option[] =>
  values.map((value) => ({ value, label: label(value) }));

export function Choice({
  label,
  name,
  options,
  hint,
  ...select
}: {
  label: string;
  name: string;
  options: Option[];
  hint?: string;
} & React.SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <FieldLabel id={id} label={label} required={select.required} />
      <select
        id={id}
        name={name}
        aria-describedby={hint ? `${id}-hint` : undefined}
        aria-required={select.required || undefined}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="muted hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The API's refusal as a sentence, announced. */
export function Refusal({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {plainMessage(error)}
    </p>
  );
}

/** An action that is busy while it runs and keeps its refusal to show. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await action(...args);
      } catch (failure) {
        setError(failure instanceof Error ? failure : new Error(String(failure)));
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { busy, error, run };
}

/** A form that reads its fields on submit and sends them; its refusal is shown above the buttons. */
export function SetupForm({
  label,
  submit,
  busyLabel = 'Saving…',
  onSubmit,
  children,
  extra,
}: {
  label: string;
  submit: string;
  busyLabel?: string;
  onSubmit: (data: FormData) => Promise<unknown>;
  children: ReactNode;
  extra?: ReactNode;
}) {
  const { busy, error, run } = useAction(onSubmit);
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(new FormData(event.currentTarget));
  };
  return (
    <form className="setup-form" aria-label={label} onSubmit={send}>
      <p className="muted required-note" data-testid="required-note" aria-hidden="true">
        * Required
      </p>
      <div className="setup-fields">{children}</div>
      <Refusal error={error} />
      <div className="row">
        <button type="submit" disabled={busy}>
          {busy ? busyLabel : submit}
        </button>
        {extra}
      </div>
    </form>
  );
}

/** A form's text, trimmed; null when empty. */
export function textOf(data: FormData, name: string): string | null {
  const value = String(data.get(name) ?? '').trim();
  return value === '' ? null : value;
}

/** A form's number; null when empty. */
export function numberOf(data: FormData, name: string): number | null {
  const value = textOf(data, name);
  return value === null ? null : Number(value);
}

/** A form's id choice: null for "none" (an empty value). */
export const idOf = numberOf;
