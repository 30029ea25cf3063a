import type { MonthBill } from '../adapters/monthly-cost.ts';
import type { TariffItemType } from '../api/models.ts';
import { numeric, TableHead } from '../components/table-head.tsx';
import { lineApplies, lineQuantity, priceUnit } from '../lib/bill-lines.ts';
import { counted, formatMoney, formatPeriod, formatUnitPrice } from '../lib/format.ts';
import { itemName } from '../lib/item-types.ts';
import { TableWrap } from './table-wrap.tsx';
import { TariffLink } from './tariff-link.tsx';

/** One bill's part in a month: its lines, subtotal, tax and total, and that month's own warnings. */
export function BillTable({
  bill,
  month,
  types,
  tz,
  accountId,
}: {
  bill: MonthBill;
  month: string;
  types: Map<string, TariffItemType>;
  tz: string;
  accountId: string;
}) {
  const money = (amount: number) => formatMoney(amount, bill.currency);
  return (
    <TableWrap>
      <table>
        <caption style={{ textAlign: 'left', padding: '0.25rem 0' }}>
          Tariff <TariffLink id={bill.tariff_id} accountId={accountId} />, meter {bill.meter_sn},{' '}
          {formatPeriod(bill.start, bill.end, tz)}
          {bill.approximate && ' (approximate)'}
        </caption>
        <TableHead columns={['Charge', numeric('Quantity'), numeric('Unit price'), numeric('Amount')]} />
        <tbody>
          {bill.lines.map((line) => (
            <tr key={`${line.item_type_code}-${line.season}-${line.period}-${line.block_index}`}>
              <th scope="row" style={{ fontWeight: 400 }}>
                {itemName(types, line.item_type_code)}
                <span className="muted"> · {lineApplies(line, { allYear: true }).join(' · ')}</span>
              </th>
              <td className="number">{lineQuantity(line, { month, start: bill.start, end: bill.end }, tz)}</td>
              <td className="number">{formatUnitPrice(line.unit_price, bill.currency, priceUnit(line.unit))}</td>
              <td className="number">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {(
            [
              ['Subtotal', bill.subtotal],
              ['Tax', bill.tax],
              ['Total', bill.total],
            ] as const
          ).map(([name, amount]) => (
            <tr key={name}>
              <th scope="row" colSpan={3}>
                {name}
              </th>
              <td className="number" data-amount={amount}>
                {money(amount)}
              </td>
            </tr>
          ))}
        </tfoot>
      </table>
      {bill.missing_intervals > 0 && (
        <p className="muted">
          {counted(bill.missing_intervals, 'interval')} of this meter without a reading: the bill is incomplete.
        </p>
      )}
      {bill.warnings.length > 0 && (
        <ul className="muted" data-testid="bill-warnings">
          {bill.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </TableWrap>
  );
}
