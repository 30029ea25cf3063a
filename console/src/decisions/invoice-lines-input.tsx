import { useId, useState } from 'react';
import type { TariffItemType } from '../api/models.ts';
import { type CsvInvoiceLine, readInvoiceLines } from './invoice-lines-csv.ts';

/** Invoice lines pasted or uploaded as CSV (invoice-lines-csv.ts), handed to the form, or the problem. */
export function InvoiceLinesInput({
  types,
  onLines,
  onProblem,
}: {
  types: Map<string, TariffItemType>;
  onLines: (lines: CsvInvoiceLine[]) => void;
  onProblem: (problem: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const take = (csv: string) => {
    const read = readInvoiceLines(csv, types);
    if ('problem' in read) onProblem(read.problem);
    else onLines(read.lines);
  };
  return (
    <details className="invoice-lines-csv">
      <summary>Paste or upload the lines as CSV</summary>
      <p className="muted">
        A header line, then a line per charge: description, quantity, unit, amount (or unit_price instead of the
        amount), and item_type_code if you know it. Separate the columns with commas, or with semicolons when amounts
        are written with a decimal comma. The lines replace those of the form.
      </p>
      <label htmlFor={`${id}-text`}>Lines as CSV</label>
      <textarea id={`${id}-text`} rows={5} cols={60} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="row">
        <button type="button" className="secondary" onClick={() => take(text)}>
          Read the pasted lines
        </button>
        <label htmlFor={`${id}-file`}>Lines file (CSV)</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv,text/plain"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) take(await file.text());
          }}
        />
      </div>
    </details>
  );
}
