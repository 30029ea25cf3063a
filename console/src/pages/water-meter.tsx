import { type FormEvent, useState } from 'react';
import { api, read } from '../api/client.ts';
import type { Meter } from '../api/models.ts';
import { DateInput } from '../components/date-input.tsx';
import { Async } from '../components/status.tsx';
import { formatDate, formatMoney, formatNumber } from '../lib/format.ts';
import { instantOf } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { plainMessage } from '../setup/plain-message.ts';

type RegisterRead = { read_at: string; register_kl: number; estimated: boolean; consumption_kl: number | null };
type WaterBill = {
  volume_kl?: number;
  total: number;
  currency: string;
  lines: { item_type_code: string; quantity: number; unit: string; amount: number; block_index: number | null }[];
};

/** A day typed as YYYY-MM-DD, at 08:00 in the zone (when a dial is usually read), as an instant. */
function readAt(day: string, tz: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(instantOf({ year: year!, month: month!, day: date! }, tz, 8)).toISOString();
}

/** The bill of the meter's tariff from one read to the next: what the municipality will charge for it. */
function LastBill({ meter, reads }: { meter: Meter; reads: RegisterRead[] }) {
  const { current, tz } = useOrganization();
  const [before, last] = reads.slice(-2);
  const bill = useResource(async () => {
    if (!before || !last || meter.tariff_id === null) return null;
    return read<WaterBill>(
      api.GET('/api/v1/tariffs/{id}/cost', {
        params: {
          path: { id: meter.tariff_id },
          query: { account_id: current.id, meter_sn: meter.meter_sn, start: before.read_at, end: last.read_at },
        },
      }),
    );
  }, [current.id, meter.meter_sn, meter.tariff_id, before?.read_at, last?.read_at]);
  if (!before || !last) return <p className="muted">Two reads make a bill.</p>;
  return (
    <Async resource={bill} label="Pricing the water…">
      {(b) =>
        b === null ? (
          <p className="muted">The meter has no tariff: its water is not priced.</p>
        ) : (
          <div className="card" data-testid="water-bill">
            <h3 style={{ marginTop: 0 }}>
              Water bill {formatDate(before.read_at, tz)} to {formatDate(last.read_at, tz)}
            </h3>
            <ul>
              {b.lines.map((l) => (
                <li key={`${l.item_type_code}-${l.block_index}`}>
                  {l.item_type_code.replaceAll('_', ' ').toLowerCase()}: {formatNumber(l.quantity, 2)} {l.unit} ·{' '}
                  {formatMoney(l.amount, b.currency)}
                </li>
              ))}
            </ul>
            <strong>
              {formatNumber(b.volume_kl ?? 0, 2)} kL · {formatMoney(b.total, b.currency)} with VAT
            </strong>
          </div>
        )
      }
    </Async>
  );
}

/** A water meter's dial reads, entered by hand, and the water bill between the last two. */
export function WaterMeterSection({ meter }: { meter: Meter }) {
  const { current, tz, canWrite } = useOrganization();
  const [day, setDay] = useState('');
  const [dial, setDial] = useState('');
  const [estimated, setEstimated] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const reads = useResource(
    () =>
      read<RegisterRead[]>(
        api.GET('/api/v1/meters/{id}/register-reads', {
          params: { path: { id: meter.id }, query: { account_id: current.id } },
        }),
      ),
    [current.id, meter.id],
  );
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || dial.trim() === '' || Number.isNaN(Number(dial))) {
      setProblem('Give the day (YYYY-MM-DD) and the dial reading in kL.');
      return;
    }
    try {
      await read(
        api.POST('/api/v1/meters/{id}/register-reads', {
          params: { path: { id: meter.id } },
          body: {
            account_id: current.id,
            reads: [{ read_at: readAt(day, tz), register_kl: Number(dial), estimated }],
          },
        }),
      );
      setProblem(null);
      setDial('');
      reads.reload();
    } catch (error) {
      setProblem(plainMessage(error as Error));
    }
  }
  return (
    <section aria-labelledby="water-heading">
      <h2 id="water-heading">Water reads</h2>
      <Async resource={reads} label="Loading the reads…">
        {(rows) => (
          <>
            {rows.length === 0 ? (
              <p className="muted">No dial read yet.</p>
            ) : (
              <table data-testid="register-reads">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Dial (kL)</th>
                    <th scope="col">Used (kL)</th>
                    <th scope="col">Estimated</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.read_at}>
                      <td>{formatDate(r.read_at, tz)}</td>
                      <td>{formatNumber(r.register_kl, 3)}</td>
                      <td>{r.consumption_kl === null ? '' : formatNumber(r.consumption_kl, 3)}</td>
                      <td>{r.estimated ? 'yes' : 'no'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <LastBill meter={meter} reads={rows} />
          </>
        )}
      </Async>
      {canWrite && (
        <form onSubmit={submit} aria-labelledby="water-read-heading">
          <h3 id="water-read-heading">Enter a dial read</h3>
          <DateInput id="water-read-day" label="Day read" value={day} onChange={setDay} />
          <label htmlFor="water-read-dial">Dial reading (kL)</label>
          <input id="water-read-dial" inputMode="decimal" value={dial} onChange={(e) => setDial(e.target.value)} />
          <label>
            <input type="checkbox" checked={estimated} onChange={(e) => setEstimated(e.target.checked)} /> Estimated
          </label>
          {problem && (
            <p role="alert" className="error">
              {problem}
            </p>
          )}
          <button type="submit">Save the read</button>
        </form>
      )}
    </section>
  );
}
