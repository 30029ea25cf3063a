import type { Executor } from '../db/types.ts';
import { buildingBlocksRepository as blocks } from '../modules/building-blocks/building-blocks.repository.ts';
import { dashboardConfigRepository as configs } from '../modules/dashboard-config/dashboard-config.repository.ts';
import { metersRepository as meters } from '../modules/meters/meters.repository.ts';

/** The serial of the demo's grid meter. */
export const DEMO_GRID_SERIAL = 'DEMO-GRID-001';

/** What later demo seeds (tariffs, readings) build on. */
export interface DemoSites {
  /** The site block that carries the meters and the dashboard config. */
  blockId: number;
  meterIds: { grid: number; solar: number; load: number };
  /** The North Building's units, each metering its own grid supply: the landlord's tenants. */
  tenants: { blockId: number; meterId: number }[];
}

/** The units metered as tenants, with their meters' serials. */
const TENANT_METERS: Readonly<Record<string, string>> = {
  'North Unit 1': 'DEMO-TENANT-N1',
  'North Unit 2': 'DEMO-TENANT-N2',
};

const ADDRESS = {
  address: '12 Dock Road',
  city: 'Cape Town',
  state: 'Western Cape',
  postal_code: 8001,
  country: 'South Africa',
};

const BUILDINGS = [
  { name: 'North Building', building_type: 'COMMERCIAL', area: 5200, units: ['North Unit 1', 'North Unit 2'] },
  { name: 'South Building', building_type: 'RESIDENTIAL', area: 3800, units: ['South Unit 1', 'South Unit 2'] },
] as const;

/** A site with two buildings of two units each (the North Building's metered as tenants), grid and load electricity meters and a solar meter on the site, and its dashboard config. */
export async function seedDemoSites(tx: Executor, accountId: string): Promise<DemoSites> {
  const site = await blocks.insert(tx, accountId, {
    ...ADDRESS,
    name: 'Demo Campus',
    building_type: 'MIXED_USE',
    description: 'Demo site with two buildings',
    area: 12000,
    location: '-33.9090,18.4200',
  });
  const tenants: DemoSites['tenants'] = [];
  for (const building of BUILDINGS) {
    const { id } = await blocks.insert(tx, accountId, {
      ...ADDRESS,
      name: building.name,
      building_type: building.building_type,
      area: building.area,
      parent_id: site.id,
    });
    for (const unit of building.units) {
      const block = await blocks.insert(tx, accountId, {
        ...ADDRESS,
        name: unit,
        building_type: building.building_type,
        parent_id: id,
      });
      const serial = TENANT_METERS[unit];
      if (serial === undefined) continue;
      const meter = await meters.insert(tx, accountId, {
        building_block_id: block.id,
        meter_sn: serial,
        meter_type: 'ELECTRICITY',
        name: `${unit} supply`,
      });
      await configs.upsert(tx, accountId, block.id, { grid_meter_id: meter.id });
      tenants.push({ blockId: block.id, meterId: meter.id });
    }
  }
  const meter = async (serial: string, name: string, meter_type: 'ELECTRICITY' | 'SOLAR' = 'ELECTRICITY') =>
    (
      await meters.insert(tx, accountId, {
        building_block_id: site.id,
        meter_sn: serial,
        meter_type,
        name,
      })
    ).id;
  const meterIds = {
    grid: await meter(DEMO_GRID_SERIAL, 'Grid supply'),
    solar: await meter('DEMO-SOLAR-001', 'Rooftop solar', 'SOLAR'),
    load: await meter('DEMO-LOAD-001', 'Site load'),
  };
  await configs.upsert(tx, accountId, site.id, {
    grid_meter_id: meterIds.grid,
    solar_meter_id: meterIds.solar,
    load_meter_id: meterIds.load,
  });
  return { blockId: site.id, meterIds, tenants };
}
