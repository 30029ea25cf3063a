import { type ChangeEvent, useEffect, useState } from 'react';
import { api, envelope } from '../api/client.ts';
import type { BuildingBlock, InvoiceListItem, NewInvoice } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { numeric, TableHead } from '../components/table-head.tsx';
import { TableWrap } from '../components/table-wrap.tsx';
import { blocksOf } from '../decisions/blocks.ts';
import { createInvoice, InvoiceForm } from '../decisions/invoice-form.tsx';
import { formatMoney, formatPeriod } from '../lib/format.ts';
import { itemTypes } from '../lib/item-types.ts';
import { SOURCE_LABELS } from '../lib/labels.ts';
import { Link, navigate } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

function InvoiceList({ invoices, blocks }: { invoices: InvoiceListItem[]; blocks: BuildingBlock[] }) {
  const { tz } = useOrganization();
  if (invoices.length === 0) return <p className="muted">No invoice yet: enter one below, or upload its file.</p>;
  const blockName = (id: number) => blocks.find((b) => b.id === id)?.name ?? `block ${id}`;
  return (
    <TableWrap>
      <table data-testid="invoice-list">
        <caption className="visually-hidden">Invoices, latest period first</caption>
        <TableHead columns={['Invoice', 'Building', 'Period', numeric('Total'), 'Check']} />
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id} data-invoice-id={invoice.id}>
              <th scope="row" style={{ fontWeight: 400 }}>
                <Link href={`/invoices/${invoice.id}`}>
                  {invoice.supplier} {invoice.invoice_number}
                </Link>
              </th>
              <td>
                {blockName(invoice.building_block_id)} · {SOURCE_LABELS[invoice.source]}
              </td>
              <td>{formatPeriod(invoice.start, invoice.end, tz)}</td>
              <td className="number">{formatMoney(invoice.total, invoice.currency)}</td>
              <td>
                {invoice.status === null
                  ? 'not checked yet'
                  : invoice.status === 'ok'
                    ? 'agrees with our bill'
                    : `flagged: ${formatMoney(invoice.difference ?? 0, invoice.currency)} against our bill`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** An invoice file as the API takes it (JSON), recorded for the organization shown. */
function InvoiceUpload() {
  const { current } = useOrganization();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setProblem(null);
    let body: NewInvoice;
    try {
      body = JSON.parse(await file.text()) as NewInvoice;
    } catch {
      setProblem(`${file.name} is not a JSON file.`);
      return;
    }
    try {
      const invoice = await createInvoice({ ...body, account_id: current.id });
      navigate(`/invoices/${invoice.id}`);
    } catch (error) {
      setProblem(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <div>
      <label htmlFor="invoice-file">Invoice file (JSON)</label>
      <input id="invoice-file" type="file" accept="application/json,.json" onChange={upload} />
      <p className="muted" style={{ fontSize: '0.85rem' }}>
        A file with the fields of the API's invoice (supplier, invoice_number, issued_on, building_block_id, start, end,
        currency, lines, subtotal, tax, total), as a supplier's system or a script writes it.
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The utility's invoices (extensions §12.3): the list with each one's latest check, and a new one. */
export function InvoicesPage() {
  const { current, canWrite } = useOrganization();
  const data = useResource(async () => {
    const [invoices, blocks, types] = await Promise.all([
      envelope<InvoiceListItem[]>(
        api.GET('/api/v1/invoices', { params: { query: { account_id: current.id, limit: 100, sortBy: 'start' } } }),
      ),
      blocksOf(current.id),
      itemTypes(),
    ]);
    return { invoices: invoices.data, count: invoices.count ?? invoices.data.length, blocks, types };
  }, [current.id]);
  useEffect(() => {
    document.title = 'Invoices · Utility Management Console';
  }, []);
  return (
    <>
      <h1>Invoices</h1>
      <p className="muted">The utility's bills, each checked against the bill computed from the meter's readings.</p>
      <Async resource={data} label="Loading the invoices…">
        {({ invoices, count, blocks, types }) => (
          <>
            <InvoiceList invoices={invoices} blocks={blocks} />
            {count > invoices.length && (
              <p className="muted">
                The {invoices.length} latest of {count} invoices.
              </p>
            )}
            {canWrite ? (
              <section aria-labelledby="new-invoice-heading">
                <h2 id="new-invoice-heading">New invoice</h2>
                <InvoiceForm blocks={blocks} types={types} onSaved={(invoice) => navigate(`/invoices/${invoice.id}`)} />
                <h2>Upload an invoice</h2>
                <InvoiceUpload />
              </section>
            ) : (
              <p className="muted">Only an owner or an administrator of {current.name} may enter invoices.</p>
            )}
          </>
        )}
      </Async>
    </>
  );
}
