import { useState } from 'react';
import { api, read } from '../api/client.ts';
import type { BuildingBlock, TenantRecovery } from '../api/models.ts';
import { periodAttributes, StatementHeader } from '../components/statement-header.tsx';
import { Async } from '../components/status.tsx';
import { numeric, TableHead } from '../components/table-head.tsx';

import { DecisionPage } from '../decisions/decision-page.tsx';
import { DecisionFields, InvalidChoice } from '../decisions/period-fields.tsx';
import { type DecisionRequest, useDecision } from '../decisions/use-decision.ts';
import { formatMoney, formatNumber, formatPeriod } from '../lib/format.ts';
import { useOrganization } from '../organization.tsx';

type Tenant = TenantRecovery['tenants'][number];

function recovery(request: DecisionRequest): Promise<TenantRecovery> {
  return read<TenantRecovery>(
    api.GET('/api/v1/building_blocks/{id}/recovery', {
      params: {
        path: { id: request.blockId },
        query: { account_id: request.accountId, start: request.start, end: request.end },
      },
    }),
  );
}

const kwh = (value: number) => `${formatNumber(value, 2)} kWh`;

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
  return (
    <section className="statement tenant-statement" aria-labelledby="statement-heading" data-testid="tenant-statement">
      <StatementHeader title="Electricity statement" subject={`${tenant.name}, at ${landlord}`} period={period} />
      <h2 id="statement-heading">Statement for {tenant.name}</h2>
      <dl className="facts">
        <dt>Period</dt>
        <dd>{period}</dd>
        <dt>Meter</dt>
        <dd>{tenant.meter_sn ?? 'none'}</dd>
        <dt>Electricity used</dt>
        <dd>{tenant.import_kwh === null ? 'not priced' : kwh(tenant.import_kwh)}</dd>
        <dt>Amount due</dt>
        <dd data-testid="statement-amount">
          <strong>{tenant.total === null ? 'not priced' : formatMoney(tenant.total, recovered.currency)}</strong>
        </dd>
      </dl>
      {!tenant.priced && <p className="notice">Not priced: {tenant.reason}</p>}
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
  const { tz } = useOrganization();
  const [statementOf, setStatementOf] = useState<number | null>(null);
  const money = (amount: number | null) => (amount === null ? '–' : formatMoney(amount, recovered.currency));
  const tenant = recovered.tenants.find((t) => t.building_block_id === statementOf);
  const period = formatPeriod(recovered.start, recovered.end, tz);
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
            <div className="muted">{kwh(recovered.supply.import_kwh)}</div>
          </li>
          <li className="card" data-testid="recovered">
            Recovered from tenants
            <div>
              <strong>{money(recovered.recovered.total)}</strong>
            </div>
            <div className="muted">{kwh(recovered.recovered.import_kwh)}</div>
          </li>
          <li className="card" data-testid="unrecovered">
            Not recovered
            <div>
              <strong>{money(recovered.unrecovered.total)}</strong>
            </div>
            <div className="muted">
              {kwh(recovered.unrecovered.import_kwh)}
              {recovered.unrecovered.share_pct !== null &&
                `, ${formatNumber(recovered.unrecovered.share_pct, 2)} % of the supply`}
            </div>
          </li>
        </ul>
        {recovered.unrecovered.total < 0 && (
          <p className="notice">The tenants are charged more than the supply costs.</p>
        )}
        {recovered.tenants.length === 0 ? (
          <p className="muted">
            No block below {block.name} has a dashboard config with a grid meter: there is no tenant to recover from.
          </p>
        ) : (
          <div className="table-wrap">
            <table data-testid="tenant-table">
              <caption className="visually-hidden">Each tenant's electricity and amount</caption>
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
                    <td className="number">{t.import_kwh === null ? '–' : kwh(t.import_kwh)}</td>
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
          </div>
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
  const { choice, setChoice, invalid, request, result, submit, block } = useDecision(blocks, recovery);
  return (
    <>
      <form onSubmit={submit} className="no-print" aria-label="Which building and period">
        <DecisionFields blocks={blocks} choice={choice} onChange={setChoice} />
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

/** Who used the landlord's electricity (extensions §12.4): the supply against each tenant's bill. */
export function RecoveryPage() {
  return (
    <DecisionPage
      title="Tenant recovery"
      intro="The landlord's supply of a site or building against what its tenants' own meters are billed: what is recovered and what is not."
    >
      {(blocks) => <RecoveryForm blocks={blocks} />}
    </DecisionPage>
  );
}
