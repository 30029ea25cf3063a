import { type FormEvent, useId, useState } from 'react';
import { api, read } from '../api/client.ts';
import type { BuildingBlock, Invoice, InvoiceDraft, NewInvoice, TariffItemType } from '../api/models.ts';
import { DateInput } from '../components/date-input.tsx';
import { TextField } from '../components/text-field.tsx';
import { formatMoney } from '../lib/format.ts';
import { isoDate, today } from '../lib/time.ts';
import { useOrganization } from '../organization.tsx';
import { addCents, parseAmount } from './invoice-flags.ts';
import type { CsvInvoiceLine } from './invoice-lines-csv.ts';
import { InvoiceLinesInput } from './invoice-lines-input.tsx';
import { type DecisionChoice, DecisionFields, defaultChoice, periodOf } from './period-fields.tsx';

const CURRENCIES = ['ZAR', 'USD', 'EUR', 'GBP', 'AUD', 'CAD', 'JPY', 'CNY'] as const;
type Currency = (typeof CURRENCIES)[number];

interface LineDraft {
  key: number;
  description: string;
  code: string;
  quantity: string;
  unit: string;
  amount: string;
}

/** An input for an amount or a quantity. */
const DECIMAL = { inputMode: 'decimal', size: 10 } as const;

let nextKey = 0;
const emptyLine = (): LineDraft => ({ key: nextKey++, description: '', code: '', quantity: '', unit: '', amount: '' });

/** Records an invoice (extensions §12.3) with the API and answers it. */
export function createInvoice(body: NewInvoice): Promise<Invoice> {
  return read<Invoice>(api.POST('/api/v1/invoices', { body }));
}

/** Our bill of the block's source and period as an invoice's figures (nothing is stored). */
function ourBill(
  accountId: string,
  blockId: number,
  source: NewInvoice['source'],
  period: { start: string; end: string },
) {
  return read<InvoiceDraft>(
    api.POST('/api/v1/invoices/draft', {
      params: { query: { account_id: accountId, building_block_id: blockId, source, ...period } },
    }),
  );
}

/** A line read from a CSV as the form edits it. */
const csvLine = (line: CsvInvoiceLine): LineDraft => ({ key: nextKey++, ...line });

/** A line of our bill as the form edits it. */
const draftLine = (line: InvoiceDraft['lines'][number]): LineDraft => ({
  key: nextKey++,
  description: line.description,
  code: line.item_type_code ?? '',
  quantity: line.quantity === null ? '' : String(line.quantity),
  unit: line.unit ?? '',
  amount: String(line.amount),
});

/** The lines of a draft as the API takes them, or the first line that is not right. */
function linesOf(drafts: LineDraft[], types: Map<string, TariffItemType>): NewInvoice['lines'] | string {
  const lines: NewInvoice['lines'] = [];
  for (const [i, d] of drafts.entries()) {
    const amount = parseAmount(d.amount);
    const quantity = d.quantity.trim() === '' ? null : parseAmount(d.quantity);
    if (!d.description.trim()) return `Line ${i + 1}: write what the charge is.`;
    if (Number.isNaN(amount)) return `Line ${i + 1}: write the amount as a number, such as 9435.75.`;
    if (quantity !== null && Number.isNaN(quantity))
      return `Line ${i + 1}: write the quantity as a number, or nothing.`;
    lines.push({
      description: d.description.trim(),
      item_type_code: (d.code || null) as NewInvoice['lines'][number]['item_type_code'],
      quantity,
      unit: d.unit.trim() || (d.code ? (types.get(d.code)?.unit ?? null) : null),
      amount,
    });
  }
  return lines;
}

function LineFields({
  line,
  index,
  types,
  onChange,
  onRemove,
}: {
  line: LineDraft;
  index: number;
  types: Map<string, TariffItemType>;
  onChange: (line: LineDraft) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const set = (change: Partial<LineDraft>) => onChange({ ...line, ...change });
  return (
    <fieldset className="invoice-line">
      <legend>Line {index + 1}</legend>
      <TextField
        id={`${id}-description`}
        label="Description"
        value={line.description}
        onChange={(description) => set({ description })}
      />
      <div>
        <label htmlFor={`${id}-code`}>Charge</label>
        <select id={`${id}-code`} value={line.code} onChange={(e) => set({ code: e.target.value })}>
          <option value="">Other (no tariff charge)</option>
          {[...types.values()].map((t) => (
            <option key={t.code} value={t.code}>
              {t.displayName}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id={`${id}-quantity`}
        label="Quantity"
        {...DECIMAL}
        value={line.quantity}
        onChange={(quantity) => set({ quantity })}
      />
      <TextField
        id={`${id}-unit`}
        label="Unit"
        size={6}
        placeholder={types.get(line.code)?.unit ?? ''}
        value={line.unit}
        onChange={(unit) => set({ unit })}
      />
      <TextField
        id={`${id}-amount`}
        label="Amount"
        {...DECIMAL}
        value={line.amount}
        onChange={(amount) => set({ amount })}
      />
      <button type="button" className="secondary" onClick={onRemove} aria-label={`Remove line ${index + 1}`}>
        Remove
      </button>
    </fieldset>
  );
}

/** A new invoice typed from the paper one: who, which building and days, its lines, tax and total. */
export function InvoiceForm({
  blocks,
  types,
  onSaved,
}: {
  blocks: BuildingBlock[];
  types: Map<string, TariffItemType>;
  onSaved: (invoice: Invoice) => void;
}) {
  const { current, tz } = useOrganization();
  const id = useId();
  const [choice, setChoice] = useState<DecisionChoice>(() => defaultChoice(undefined, tz));
  const [supplier, setSupplier] = useState('');
  const [number, setNumber] = useState('');
  const [issuedOn, setIssuedOn] = useState(isoDate(today(tz)));
  const [currency, setCurrency] = useState<Currency>('ZAR');
  const [estimated, setEstimated] = useState(false);
  const [lines, setLines] = useState<LineDraft[]>([emptyLine()]);
  const [tax, setTax] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const amounts = lines.map((l) => parseAmount(l.amount)).filter((a) => !Number.isNaN(a));
  const subtotal = addCents(amounts);
  const taxAmount = parseAmount(tax);
  const total = addCents([subtotal, Number.isNaN(taxAmount) ? 0 : taxAmount]);

  const startFromOurBill = async () => {
    const period = periodOf(choice, tz);
    const why =
      (!choice.blockId && 'Choose the building the invoice is for.') || (typeof period === 'string' && period);
    if (why || typeof period === 'string') {
      setProblem(why || null);
      return;
    }
    setProblem(null);
    try {
      const draft = await ourBill(current.id, Number(choice.blockId), choice.source, period);
      setCurrency(draft.currency);
      setLines(draft.lines.map(draftLine));
      setTax(String(draft.tax));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const period = periodOf(choice, tz);
    const parsed = linesOf(lines, types);
    const why =
      (!choice.blockId && 'Choose the building the invoice is for.') ||
      (typeof period === 'string' && period) ||
      (typeof parsed === 'string' && parsed) ||
      (Number.isNaN(taxAmount) && 'Write the tax as a number (0 when there is none).') ||
      null;
    if (why || typeof period === 'string' || typeof parsed === 'string') {
      setProblem(why);
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      onSaved(
        await createInvoice({
          account_id: current.id,
          building_block_id: Number(choice.blockId),
          source: choice.source,
          supplier: supplier.trim(),
          invoice_number: number.trim(),
          issued_on: issuedOn,
          start: period.start,
          end: period.end,
          currency,
          estimated,
          lines: parsed,
          subtotal,
          tax: taxAmount,
          total,
        }),
      );
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label="New invoice" className="invoice-form">
      <div className="row">
        <TextField id={`${id}-supplier`} label="Supplier" value={supplier} onChange={setSupplier} required />
        <TextField id={`${id}-number`} label="Invoice number" value={number} onChange={setNumber} required />
        <DateInput id={`${id}-issued`} label="Issued on" value={issuedOn} onChange={setIssuedOn} />
        <div>
          <label htmlFor={`${id}-currency`}>Currency</label>
          <select id={`${id}-currency`} value={currency} onChange={(e) => setCurrency(e.target.value as Currency)}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
      </div>
      <DecisionFields blocks={blocks} choice={choice} onChange={setChoice} withSource="and water" />
      <label className="check">
        <input type="checkbox" checked={estimated} onChange={(e) => setEstimated(e.target.checked)} /> The reading was
        estimated
      </label>
      <h3>Lines</h3>
      <p className="muted">
        Start from the bill we compute for this building, source and period, then change what the utility charged
        differently.{' '}
        <button type="button" className="secondary" onClick={startFromOurBill}>
          Start from our bill
        </button>
      </p>
      <InvoiceLinesInput
        types={types}
        onLines={(read) => {
          setProblem(null);
          setLines(read.map(csvLine));
        }}
        onProblem={setProblem}
      />
      {lines.map((line, i) => (
        <LineFields
          key={line.key}
          line={line}
          index={i}
          types={types}
          onChange={(next) => setLines(lines.map((l) => (l.key === line.key ? next : l)))}
          onRemove={() => setLines(lines.filter((l) => l.key !== line.key))}
        />
      ))}
      <button type="button" className="secondary" onClick={() => setLines([...lines, emptyLine()])}>
        Add line
      </button>
      <div className="row" style={{ marginTop: '0.75rem' }}>
        <TextField id={`${id}-tax`} label="Tax" inputMode="decimal" size={10} value={tax} onChange={setTax} required />
        <p data-testid="invoice-sums" style={{ margin: 0 }}>
          Subtotal {formatMoney(subtotal, currency)} · Total <strong>{formatMoney(total, currency)}</strong>
        </p>
      </div>
      <button type="submit" disabled={saving} style={{ marginTop: '0.75rem' }}>
        {saving ? 'Saving…' : 'Save and check'}
      </button>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
