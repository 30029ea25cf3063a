import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import type { BuildingBlock, Invoice, InvoiceCheck, TariffItemType } from '../api/models.ts';
import { StatementHeader } from '../components/statement-header.tsx';
import { Async } from '../components/status.tsx';
import { numeric, TableHead } from '../components/table-head.tsx';
import { TableWrap } from '../components/table-wrap.tsx';
import { FLAG_EXPLANATIONS } from '../decisions/invoice-flags.ts';
import { formatDate, formatMoney, formatNumber, formatPeriod } from '../lib/format.ts';
import { itemName, itemTypes } from '../lib/item-types.ts';
import { SOURCE_LABELS } from '../lib/labels.ts';
import { Link } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

type Flag = InvoiceCheck['flags'][number];

const quantity = (value: number | null) => (value === null ? '–' : formatNumber(value, 2));

function CheckTable({
  invoice,
  check,
  types,
}: {
  invoice: Invoice;
  check: InvoiceCheck;
  types: Map<string, TariffItemType>;
}) {
  const money = (amount: number | null) => (amount === null ? '–' : formatMoney(amount, invoice.currency));
  return (
    <TableWrap>
      <table data-testid="check-table">
        <caption className="visually-hidden">The invoice beside the bill computed from the readings</caption>
        <TableHead
          columns={[
            'Charge',
            numeric('Invoiced'),
            numeric('Ours'),
            numeric('Difference'),
            numeric('Quantity invoiced'),
            numeric('Quantity ours'),
          ]}
        />
        <tbody>
          {check.lines.map((line) => (
            <tr
              key={`${line.item_type_code} ${line.invoice_amount} ${line.computed_amount} ${line.invoice_quantity}`}
              data-code={line.item_type_code ?? ''}
            >
              <th scope="row" style={{ fontWeight: 400 }}>
                {line.item_type_code === null
                  ? 'Other charges (no tariff charge)'
                  : itemName(types, line.item_type_code)}
              </th>
              <td className="number">{money(line.invoice_amount)}</td>
              <td className="number">{money(line.computed_amount)}</td>
              <td className="number">{money(line.difference)}</td>
              <td className="number">{quantity(line.invoice_quantity)}</td>
              <td className="number">{quantity(line.computed_quantity)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="number" data-testid="invoice-total">
              {money(check.invoice_total)}
            </td>
            <td className="number" data-testid="computed-total">
              {money(check.computed.total)}
            </td>
            <td className="number" data-testid="check-difference">
              {money(check.difference)}
            </td>
            <td />
            <td />
          </tr>
        </tfoot>
      </table>
    </TableWrap>
  );
}

/** What a flag's severity asks of the reader. */
const SEVERITY_WORDS: Record<Flag['severity'], string> = {
  error: 'Disagrees with our bill:',
  warning: 'To note:',
};

function Flags({ check }: { check: InvoiceCheck }) {
  if (check.flags.length === 0) {
    return (
      <p className="success" data-testid="check-status">
        The invoice agrees with the bill computed from the readings, within the tolerance of {check.tolerance_pct} %.
      </p>
    );
  }
  const byCode = new Map<Flag['code'], Flag[]>();
  for (const flag of check.flags) byCode.set(flag.code, [...(byCode.get(flag.code) ?? []), flag]);
  return (
    <>
      <p className="notice" data-testid="check-status">
        {byCode.size === 1 ? 'One thing to look at' : `${byCode.size} things to look at`} before paying (amounts
        compared within {check.tolerance_pct} %):
      </p>
      <ul data-testid="check-flags">
        {[...byCode].map(([code, flags]) => (
          <li key={code} data-code={code} data-severity={flags[0]!.severity}>
            <span className={`severity-${flags[0]!.severity}`}>{SEVERITY_WORDS[flags[0]!.severity]}</span>{' '}
            <strong>{FLAG_EXPLANATIONS[code]}</strong>
            <ul className="muted">
              {flags.map((flag) => (
                <li key={flag.message}>{flag.message}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

function InvoiceView({
  invoice,
  check,
  block,
  types,
}: {
  invoice: Invoice;
  check: InvoiceCheck;
  block: BuildingBlock;
  types: Map<string, TariffItemType>;
}) {
  const { tz } = useOrganization();
  const period = formatPeriod(invoice.start, invoice.end, tz);
  useEffect(() => {
    document.title = `Invoice ${invoice.invoice_number} · Utility Management Console`;
  }, [invoice.invoice_number]);
  return (
    <article className="statement">
      <p className="no-print" style={{ margin: '0 0 0.5rem' }}>
        <Link href="/invoices">‹ Invoices</Link>
      </p>
      <StatementHeader
        title="Invoice check"
        subject={`${block.name}, ${SOURCE_LABELS[invoice.source]}`}
        period={period}
      />
      <h1>
        {invoice.supplier} invoice {invoice.invoice_number}
      </h1>
      <dl className="facts">
        <dt>Building</dt>
        <dd>
          {block.name} · {SOURCE_LABELS[invoice.source]}
        </dd>
        <dt>Period</dt>
        <dd>{period}</dd>
        <dt>Issued</dt>
        <dd>{formatDate(`${invoice.issued_on}T12:00:00Z`, 'UTC')}</dd>
        <dt>Reading</dt>
        <dd>{invoice.estimated ? 'estimated' : 'read'}</dd>
        <dt>Energy recorded</dt>
        <dd>{formatNumber(check.computed.import_kwh, 2)} kWh</dd>
      </dl>
      <button type="button" className="secondary no-print" onClick={() => window.print()}>
        Print the check
      </button>
      <h2>The invoice beside our bill</h2>
      <Flags check={check} />
      <CheckTable invoice={invoice} check={check} types={types} />
      {check.computed.warnings.length > 0 && (
        <>
          <h3>About our bill</h3>
          <ul className="muted">
            {check.computed.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}

/** An invoice, checked against the bill computed for the same source and period (extensions §12.3). */
export function InvoicePage({ id }: { id: number }) {
  const { current } = useOrganization();
  const data = useResource(async () => {
    const params = { path: { id }, query: { account_id: current.id } };
    const [invoice, check, types] = await Promise.all([
      read<Invoice>(api.GET('/api/v1/invoices/{id}', { params })),
      read<InvoiceCheck>(api.GET('/api/v1/invoices/{id}/check', { params })),
      itemTypes(),
    ]);
    const block = await read<BuildingBlock>(
      api.GET('/api/v1/building_blocks/{id}', {
        params: { path: { id: invoice.building_block_id }, query: { account_id: current.id } },
      }),
    );
    return { invoice, check, block, types };
  }, [id, current.id]);
  return (
    <Async resource={data} label="Checking the invoice…">
      {(loaded) => <InvoiceView {...loaded} />}
    </Async>
  );
}
