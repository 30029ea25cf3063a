import { useState } from 'react';
import { api, read } from '../api/client.ts';
import type { BuildingBlock, TenantRecovery } from '../api/models.ts';
import { periodAttributes, StatementHeader } from '../components/statement-header.tsx';
import { Async } from '../components/status.tsx';
import { numeric, TableHead } from '../components/table-head.tsx';
import { TableWrap } from '../components/table-wrap.tsx';
import { candidateTariffs } from '../decisions/candidate-picker.tsx';
import { DecisionPage } from '../decisions/decision-page.tsx';
import { DecisionFields, InvalidChoice } from '../decisions/period-fields.tsx';
import { type DecisionRequest, useDecision } from '../decisions/use-decision.ts';
import { lineApplies } from '../lib/bill-lines.ts';
import { downloadBlob, fileSafe } from '../lib/download.ts';
import { formatDateTime, formatMoney, formatNumber, formatPeriod, formatUnitPrice } from '../lib/format.ts';
import { itemName, itemTypes } from '../lib/item-types.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';

type Tenant = TenantRecovery['tenants'][number];
/** The supply a recovery is of: the grid's electricity, or the water supply. */
type Supply = 'grid' | 'water';

/** The words of a recovery's supply, from the unit its answer counts in. */
function supplyWords(recovered: Pick<TenantRecovery, 'unit'>) {
  const water = recovered.unit === 'kL';
  return {
    source: (water ? 'water' : 'grid') as Supply,
    utility: water ? 'water' : 'electricity',
    meter: water ? 'a water meter' : 'a grid meter',
    used: (value: number) => `${formatNumber(value, 2)} ${recovered.unit}`,
  };
}

function recovery(request: DecisionRequest): Promise<TenantRecovery> {
  const [reference] = request.tariffIds;
  return read<TenantRecovery>(
    api.GET('/api/v1/building_blocks/{id}/recovery', {
      params: {
        path: { id: request.blockId },
        query: {
          account_id: request.accountId,
          start: request.start,
          end: request.end,
          source: request.source === 'water' ? 'water' : 'grid',
          ...(reference === undefined ? {} : { reference_tariff_id: reference }),
        },
      },
    }),
  );
}

/** Downloads the tenants' statements as the service writes them (CSV, one row per line of a tenant's bill). */
async function downloadStatements(recovered: TenantRecovery, accountId: string, blockName: string) {
  const { data, response } = await api.GET('/api/v1/building_blocks/{id}/recovery/statements', {
    params: {
      path: { id: recovered.building_block_id },
      query: {
        account_id: accountId,
        start: recovered.start,
        end: recovered.end,
        source: supplyWords(recovered).source,
      },
    },
    parseAs: 'blob',
  });
  if (!response.ok || !data) throw new Error(`The statements could not be downloaded (${response.status})`);
  downloadBlob(`${fileSafe(blockName)}_statements_${recovered.start.slice(0, 10)}.csv`, data as Blob);
}

/** A tenant's over-recovery in words, or null when it pays no more than the reference tariff would charge. */
function overRecoveryText(tenant: Tenant, currency: string): string | null {
  if (!tenant.over_recovery || tenant.reference_total === null) return null;
  return `${tenant.name} is charged ${formatMoney(tenant.over_recovery, currency)} more than the utility's tariff would charge it directly (${formatMoney(tenant.reference_total, currency)}): a landlord may not recover more than the utility's tariff.`;
}

/** Where a statement line's price applies, after its charge's name, as the bills write it: " · Summer · Peak". */
const applies = (line: Tenant['lines'][number]) =>
  lineApplies(line, { allYear: false })
    .map((words) => ` · ${words}`)
    .join('');

/** The lines of a tenant's bill, its subtotal, VAT and total. */
function TenantLines({ tenant, currency }: { tenant: Tenant; currency: string }) {
  const types = useResource(itemTypes, []);
  const name = (code: string) => (types.status === 'ready' ? itemName(types.data, code) : code);
  const money = (amount: number | null) => (amount === null ? '–' : formatMoney(amount, currency));
  return (
    <TableWrap>
      <table data-testid="statement-lines">
        <caption className="visually-hidden">The charges of {tenant.name}</caption>
        <TableHead columns={['Charge', numeric('Quantity'), numeric('Unit price'), numeric('Amount')]} />
        <tbody>
          {tenant.lines.map((line) => (
            <tr key={`${line.item_type_code}-${line.season}-${line.period}-${line.block_index}-${line.unit_price}`}>
              <th scope="row" style={{ fontWeight: 400 }}>
                {name(line.item_type_code)}
                {applies(line)}
              </th>
              <td className="number">
                {formatNumber(line.quantity, 2)} {line.unit}
              </td>
              <td className="number">{formatUnitPrice(line.unit_price, currency, line.unit)}</td>
              <td className="number">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Subtotal
            </th>
            <td className="number">{money(tenant.subtotal)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              VAT
            </th>
            <td className="number">{money(tenant.tax)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td className="number" data-testid="statement-total">
              <strong>{money(tenant.total)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
    </TableWrap>
  );
}

/** What one tenant owes for the period, as a statement to hand over or print. */
function TenantStatement({
  tenant,
  recovered,
  landlord,
  onClose,
}: {
  tenant: Tenant;
  recovered: TenantRecovery;
  landlord: string;
  onClose: () => void;
}) {
  const { tz } = useOrganization();
  const period = formatPeriod(recovered.start, recovered.end, tz);
  const words = supplyWords(recovered);
  const title = words.utility === 'water' ? 'Water statement' : 'Electricity statement';
  return (
    <section className="statement tenant-statement" aria-labelledby="statement-heading" data-testid="tenant-statement">
      <StatementHeader title={title} subject={`${tenant.name}, at ${landlord}`} period={period} />
      <h2 id="statement-heading">Statement for {tenant.name}</h2>
      <dl className="facts">
        <dt>Landlord</dt>
        <dd>{landlord}</dd>
        <dt>Tenant</dt>
        <dd>{tenant.name}</dd>
        <dt>Period</dt>
        <dd>{period}</dd>
        <dt>Meter</dt>
        <dd>{tenant.meter_sn ?? 'none'}</dd>
        <dt>Readings</dt>
        <dd data-testid="statement-readings">
          {tenant.readings.count === 0
            ? 'none in the period'
            : `${tenant.readings.count} from ${formatDateTime(tenant.readings.first_ts!, tz)} to ${formatDateTime(tenant.readings.last_ts!, tz)}`}
        </dd>
        <dt>{words.utility === 'water' ? 'Water used' : 'Electricity used'}</dt>
        <dd>{words.used(tenant.import_kwh)}</dd>
        {tenant.rate_per_kwh !== null && (
          <>
            <dt>Average rate</dt>
            <dd>{formatUnitPrice(tenant.rate_per_kwh, recovered.currency, recovered.unit)} before VAT</dd>
          </>
        )}
        <dt>Amount due</dt>
        <dd data-testid="statement-amount">
          <strong>{tenant.total === null ? 'not priced' : formatMoney(tenant.total, recovered.currency)}</strong>
        </dd>
      </dl>
      {!tenant.priced && <p className="notice">Not priced: {tenant.reason}</p>}
      {tenant.priced && <TenantLines tenant={tenant} currency={recovered.currency} />}
      <p className="muted">Priced on the tariff of the tenant's own meter, as its building cost prices it.</p>
      <div className="row no-print">
        <button type="button" onClick={() => window.print()}>
          Print statement
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close statement
        </button>
      </div>
    </section>
  );
}

function RecoveryResult({ recovered, block }: { recovered: TenantRecovery; block: BuildingBlock }) {
  const { tz, current } = useOrganization();
  const [statementOf, setStatementOf] = useState<number | null>(null);
  const money = (amount: number | null) => (amount === null ? '–' : formatMoney(amount, recovered.currency));
  const tenant = recovered.tenants.find((t) => t.building_block_id === statementOf);
  const period = formatPeriod(recovered.start, recovered.end, tz);
  const words = supplyWords(recovered);
  return (
    <>
      <section
        aria-labelledby="recovery-heading"
        className={tenant ? 'no-print' : 'statement'}
        {...periodAttributes(recovered)}
      >
        <StatementHeader title="Tenant recovery" subject={block.name} period={period} />
        <h2 id="recovery-heading">
          {block.name}, {period}
        </h2>
        <ul className="cards" aria-label="Recovery summary">
          <li className="card">
            Supply (meter {recovered.supply.meter_sn})
            <div>
              <strong>{money(recovered.supply.total)}</strong>
            </div>
            <div className="muted">{words.used(recovered.supply.import_kwh)}</div>
          </li>
          <li className="card" data-testid="recovered">
            Recovered from tenants
            <div>
              <strong>{money(recovered.recovered.total)}</strong>
            </div>
            <div className="muted">{words.used(recovered.recovered.import_kwh)}</div>
          </li>
          <li className="card" data-testid="unrecovered">
            Not recovered
            <div>
              <strong>{money(recovered.unrecovered.total)}</strong>
            </div>
            <div className="muted">
              {words.used(recovered.unrecovered.import_kwh)}
              {recovered.unrecovered.share_pct !== null &&
                `, ${formatNumber(recovered.unrecovered.share_pct, 2)} % of the supply`}
            </div>
          </li>
        </ul>
        {recovered.unrecovered.total < 0 && (
          <p className="notice">The tenants are charged more than the supply costs.</p>
        )}
        {recovered.unrecovered.unbilled_kwh > 0 && (
          <p className="notice" data-testid="unbilled">
            {words.used(recovered.unrecovered.unbilled_kwh)} of tenants' metered {words.utility} is billed to no one
            (tenants without a tariff); {words.used(recovered.unrecovered.common_kwh)} is used where no tenant meters
            it.
          </p>
        )}
        {recovered.tenants.map((t) => overRecoveryText(t, recovered.currency)).filter((text) => text !== null).length >
          0 && (
          <ul className="notice" data-testid="over-recovery">
            {recovered.tenants.map((t) => {
              const text = overRecoveryText(t, recovered.currency);
              return text && <li key={t.building_block_id}>{text}</li>;
            })}
          </ul>
        )}
        {recovered.tenants.length > 0 && (
          <button
            type="button"
            className="secondary no-print"
            onClick={() => downloadStatements(recovered, current.id, block.name).catch((error) => alert(String(error)))}
          >
            Download the tenants' statements (CSV)
          </button>
        )}
        {recovered.tenants.length === 0 ? (
          <p className="muted">
            No block below {block.name} has a dashboard config with {words.meter}: there is no tenant to recover from.
          </p>
        ) : (
          <TableWrap>
            <table data-testid="tenant-table">
              <caption className="visually-hidden">Each tenant's {words.utility} and amount</caption>
              <TableHead
                columns={['Tenant', 'Meter', numeric('Used'), numeric('Amount'), { label: 'Statement', hidden: true }]}
              />
              <tbody>
                {recovered.tenants.map((t) => (
                  <tr key={t.building_block_id} data-block-id={t.building_block_id}>
                    <th scope="row" style={{ fontWeight: 400 }}>
                      {t.name}
                    </th>
                    <td>{t.meter_sn ?? '–'}</td>
                    <td className="number">{words.used(t.import_kwh)}</td>
                    <td className="number">{t.priced ? money(t.total) : `not priced: ${t.reason}`}</td>
                    <td>
                      <button
                        type="button"
                        className="secondary no-print"
                        onClick={() => setStatementOf(t.building_block_id)}
                      >
                        Statement for {t.name}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      {tenant && (
        <TenantStatement
          tenant={tenant}
          recovered={recovered}
          landlord={block.name}
          onClose={() => setStatementOf(null)}
        />
      )}
    </>
  );
}

function RecoveryForm({ blocks }: { blocks: BuildingBlock[] }) {
  const { current } = useOrganization();
  const { choice, setChoice, invalid, request, result, submit, block } = useDecision(blocks, recovery);
  const supply: Supply = choice.source === 'water' ? 'water' : 'grid';
  const meterType = supply === 'water' ? 'WATER' : 'ELECTRICITY';
  const candidates = useResource(() => candidateTariffs(current.id, meterType), [current.id, meterType]);
  const [reference, setReference] = useState('');
  return (
    <>
      <form
        onSubmit={(event) => submit(event, reference === '' ? [] : [Number(reference)])}
        className="no-print"
        aria-label="Which building and period"
      >
        <DecisionFields blocks={blocks} choice={choice} onChange={setChoice} />
        <div>
          <label htmlFor="recovery-supply">Supply</label>
          <select
            id="recovery-supply"
            value={supply}
            onChange={(e) => {
              setChoice({ ...choice, source: e.target.value as Supply });
              setReference('');
            }}
          >
            <option value="grid">Electricity (the grid supply)</option>
            <option value="water">Water</option>
          </select>
        </div>
        <div>
          <label htmlFor="reference-tariff">The utility's tariff, to check that no tenant pays more</label>
          <select id="reference-tariff" value={reference} onChange={(e) => setReference(e.target.value)}>
            <option value="">None</option>
            {(candidates.status === 'ready' ? candidates.data : []).map(({ tariff, catalogue }) => (
              <option key={tariff.id} value={tariff.id}>
                {tariff.name} ({catalogue ? 'catalogue' : 'yours'})
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Show recovery</button>
        <InvalidChoice reason={invalid} />
      </form>
      {request && block && (
        <Async resource={result} label="Pricing the supply and the tenants…">
          {(recovered) => recovered && <RecoveryResult key={recovered.start} recovered={recovered} block={block} />}
        </Async>
      )}
    </>
  );
}

/** Who used the landlord's electricity or water (extensions §12.4, §13.6): the supply against each tenant's bill. */
export function RecoveryPage() {
  return (
    <DecisionPage
      title="Tenant recovery"
      intro="The landlord's electricity or water supply of a site or building against what its tenants' own meters are billed: what is recovered and what is not."
    >
      {(blocks) => <RecoveryForm blocks={blocks} />}
    </DecisionPage>
  );
}
