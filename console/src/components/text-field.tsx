import type { InputHTMLAttributes, ReactNode } from 'react';

/** A labelled one-line text input. */
export function TextField({
  id,
  label,
  value,
  onChange,
  ...input
}: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'type'>) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={value} onChange={(e) => onChange(e.target.value)} {...input} />
    </div>
  );
}
