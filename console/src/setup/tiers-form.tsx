import { useRef, useState } from 'react';
import { api, read } from '../api/client.ts';
import type { Tariff, TariffItem } from '../api/models.ts';
import { useOrganization } from '../organization.tsx';
import { Refusal, useAction } from './form-kit.tsx';

interface TierRow {
  /** Stays with the row when another row is removed. */
  key: number;
  upper: string;
  cents: string;
}

/** "Edit tiers" of an item: consumption bands, each up to a limit (the last without one), with its price. */
export function TiersForm({ tariff, item, onSaved }: { tariff: Tariff; item: TariffItem; onSaved: () => void }) {
  const { current } = useOrganization();
  const nextKey = useRef(item.tariff_blocks.length);
  const [rows, setRows] = useState<TierRow[]>(() =>
    item.tariff_blocks.map((b, key) => ({
      key,
      upper: b.upper_limit === null ? '' : String(b.upper_limit),
      cents: String(b.unit_price_cents),
    })),
  );
  const set = (index: number, row: Partial<Omit<TierRow, 'key'>>) =>
    setRows((all) => all.map((r, i) => (i === index ? { ...r, ...row } : r)));
  const save = useAction(async () => {
    await read(
      api.POST('/api/v1/tariffs/{id}/items/{itemId}/blocks', {
        params: { path: { id: tariff.id, itemId: item.id }, query: { account_id: current.id } },
        body: rows.map((r, block_index) => ({
          block_index,
          upper_limit: r.upper.trim() === '' ? null : Number(r.upper),
          unit_price_cents: Number(r.cents),
        })),
      }),
    );
    onSaved();
  });
  const prefix = `tier-${item.id}`;
  return (
    <form
      className="tiers"
      aria-label={`Tiers of item ${item.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      {rows.length === 0 && <p className="muted">No tiers: the item's price applies to all consumption.</p>}
      {rows.map((row, i) => (
        <div className="row" key={row.key}>
          <div className="field">
            <label htmlFor={`${prefix}-${i}-upper`}>Tier {i + 1}: up to (kWh a month)</label>
            <input
              id={`${prefix}-${i}-upper`}
              type="number"
              min={0}
              step="any"
              value={row.upper}
              placeholder="no limit"
              onChange={(e) => set(i, { upper: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${prefix}-${i}-cents`}>Tier {i + 1}: price (c/kWh)</label>
            <input
              id={`${prefix}-${i}-cents`}
              type="number"
              min={0}
              step="any"
              required
              value={row.cents}
              onChange={(e) => set(i, { cents: e.target.value })}
            />
          </div>
          <button type="button" className="secondary" onClick={() => setRows((all) => all.filter((_, j) => j !== i))}>
            Remove tier {i + 1}
          </button>
        </div>
      ))}
      <Refusal error={save.error} />
      <div className="row">
        <button
          type="button"
          className="secondary"
          onClick={() => setRows((all) => [...all, { key: nextKey.current++, upper: '', cents: '' }])}
        >
          Add tier
        </button>
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save tiers'}
        </button>
      </div>
    </form>
  );
}
