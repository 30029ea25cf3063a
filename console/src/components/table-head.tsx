/** A table's column headers; numeric columns align right. */
export function TableHead({
  columns,
}: {
  columns: (string | { label: string; numeric?: boolean; hidden?: boolean })[];
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { label, numeric = false, hidden = false } = typeof column === 'string' ? { label: column } : column;
          return (
            <th key={label} scope="col" className={numeric ? 'number' : undefined}>
              {hidden ? <span className="visually-hidden">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** A numeric column. */
export const numeric = (label: string) => ({ label, numeric: true });
