import { Decimal } from 'decimal.js';
import type { Database } from '../../db/types.ts';
import type { AccessGuard } from '../../http/access-guard.ts';
import type { Admission } from '../../http/admission.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest } from '../../http/errors.ts';
import type { CostService } from '../cost/cost.service.ts';
import { tenantRecoveryRepository as repo } from './tenant-recovery.repository.ts';
import type { RecoveryQuery } from './tenant-recovery.schemas.ts';

export interface TenantRecoveryDeps {
  db: Database;
  guard: AccessGuard;
  admission: Admission;
  cost: Pick<CostService, 'sourceOfBlock'>;
}

type GridCost = Awaited<ReturnType<CostService['sourceOfBlock']>>['cost'];

const sum = (values: readonly (number | string)[]) =>
  values.reduce<Decimal>((total, value) => total.plus(value), new Decimal(0));

/** The kWh and money of a priced grid source: its bills added up. */
function billed(grid: GridCost) {
  return { import_kwh: sum(grid.bills.map((b) => b.import_kwh)), total: sum(grid.bills.map((b) => b.total)) };
}

export function createTenantRecoveryService({ db, guard, admission, cost }: TenantRecoveryDeps) {
  async function tenantOf(
    auth: AuthContext,
    accountId: string,
    block: { id: number; name: string },
    currency: string,
    start: Date,
    end: Date,
  ) {
    const { cost: grid } = await cost.sourceOfBlock(auth, accountId, block.id, 'grid', start, end);
    const base = { building_block_id: block.id, name: block.name, meter_sn: grid.meter_sn };
    const unpriced = (reason: string) => ({ ...base, import_kwh: null, total: null, priced: false, reason });
    if (!grid.priced) return unpriced(grid.reason);
    const other = grid.bills.find((b) => b.currency !== currency);
    if (other) return unpriced(`Billed in ${other.currency}, the supply in ${currency}`);
    const { import_kwh, total } = billed(grid);
    return { ...base, import_kwh: import_kwh.toNumber(), total: total.toNumber(), priced: true, reason: null };
  }

  async function recovery(auth: AuthContext, blockId: number, query: RecoveryQuery, handOver: () => Promise<void>) {
    const accountId = query.account_id;
    const [start, end] = [new Date(query.start), new Date(query.end)];
    const { meter, cost: supplyCost } = await cost.sourceOfBlock(auth, accountId, blockId, 'grid', start, end);
    if (!meter) throw badRequest('grid: The block has no grid meter');
    if (!supplyCost.priced) throw badRequest(`grid: The supply is not priced: ${supplyCost.reason}`);
    const currency = supplyCost.bills[0]!.currency;
    const supply = billed(supplyCost);
    const blocks = await repo.tenantBlocks(db, accountId, blockId);
    // One tenant after the other: a tenant's cold year is its months of rollups read from the
    // database, and four tenants' rows arriving at once were parsed on the event loop in pieces of
    // 25-200 ms while other organizations' requests waited (measured in the history of
    // docs/PERFORMANCE.md). Warm, a tenant is one turn of pricing either way. Each tenant is a step
    // of its own: between tenants the slot goes to waiting work.
    const tenants = [];
    for (const block of blocks) {
      await handOver();
      tenants.push(await tenantOf(auth, accountId, block, currency, start, end));
    }
    const priced = tenants.filter((tenant) => tenant.priced);
    const recovered = {
      import_kwh: sum(priced.map((tenant) => tenant.import_kwh!)),
      total: sum(priced.map((tenant) => tenant.total!)),
    };
    const unrecoveredKwh = supply.import_kwh.minus(recovered.import_kwh);
    return {
      building_block_id: blockId,
      start: start.toISOString(),
      end: end.toISOString(),
      currency,
      supply: { meter_sn: meter.meter_sn, import_kwh: supply.import_kwh.toNumber(), total: supply.total.toNumber() },
      tenants,
      recovered: { import_kwh: recovered.import_kwh.toNumber(), total: recovered.total.toNumber() },
      unrecovered: {
        import_kwh: unrecoveredKwh.toNumber(),
        total: supply.total.minus(recovered.total).toNumber(),
        share_pct: supply.import_kwh.isZero()
          ? null
          : unrecoveredKwh.div(supply.import_kwh).times(100).toDecimalPlaces(2).toNumber(),
      },
    };
  }

  return {
    /** The landlord's grid supply against what its tenants' own grid meters bill (extensions §12.4). */
    async recovery(auth: AuthContext, blockId: number, query: RecoveryQuery) {
      await guard.require(auth, query.account_id, 'read');
      return admission.admit(auth, query.account_id, (step) => recovery(auth, blockId, query, step));
    },
  };
}

export type TenantRecoveryService = ReturnType<typeof createTenantRecoveryService>;
