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
    <div>
      <label htmlFor={id}>
        {label} <span className="muted">(YYYY-MM-DD)</span>
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        pattern="\d{4}-\d{2}-\d{2}"
        placeholder="YYYY-MM-DD"
        size={11}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
      />
    </div>
  );
}
