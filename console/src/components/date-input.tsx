import { TextField } from './text-field.tsx';

/**
 * A day typed as YYYY-MM-DD, the way the console writes days everywhere (a browser's date input
 * shows its own language's order, mm/dd/yyyy or dd/mm/yyyy, whatever the console's locale).
 */
export function DateInput({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      id={id}
      label={
        <>
          {label} <span className="muted">(YYYY-MM-DD)</span>
        </>
      }
      inputMode="numeric"
      pattern="\d{4}-\d{2}-\d{2}"
      placeholder="YYYY-MM-DD"
      size={11}
      value={value}
      onChange={onChange}
      required
    />
  );
}
