import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockBody, meterBody } from '../helpers/building-factories.ts';
import { FORBIDDEN_NOT_MEMBER, invalid, invalidPath } from '../helpers/envelopes.ts';
import { registerUser, type TestUser } from '../helpers/factories.ts';
import { call, type Reply } from '../helpers/http.ts';
import { tariffBody } from '../helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  buildOrganization,
  invoiceBody,
  type OrganizationFixture,
  READINGS_RANGE,
  snapshotOrganization,
} from './victim-fixture.ts';

/**
 * Every documented operation either addresses no organization's data (this list, with the reason)
 * or is in ROUTES below. A new operation in neither makes the test fail.
 */
const NOT_ORGANIZATION_SCOPED: Record<string, string> = {
  'POST /api/v1/auth/signup': 'public: creates a user',
  'POST /api/v1/auth/login': 'public: the credentials are the body',
  'POST /api/v1/auth/refresh': 'public: the refresh token is the credential',
  'POST /api/v1/auth/logout': "the caller's own session",
  'GET /api/v1/auth/organizations': "the caller's own memberships",
  'GET /api/v1/auth/users/{userId}/organizations': 'only organizations the caller belongs to too (checked below)',
  'POST /api/v1/admin/users': 'service-role key only (a user token is refused, checked below)',
  'GET /api/v1/admin/users': 'service-role key only',
  'DELETE /api/v1/admin/users/{id}': 'service-role key only',
  'POST /api/v1/organizations': 'creates a new organization owned by the caller',
  'GET /api/v1/tariffs/catalogue': 'global read-only catalogue',
  'GET /api/v1/tariffs/catalogue/{id}':
    "global read-only catalogue (an organization's tariff is not found, checked below)",
  'GET /api/v1/tariff_item_types': 'global reference data',
  'GET /api/v1/dsos': 'global reference data',
  'GET /api/v1/tou_schedules': 'global reference data',
  'GET /api/v1/tou_schedules/{id}': 'global reference data',
};

interface World {
  victim: OrganizationFixture;
  attacker: OrganizationFixture;
  attackerUserId: string;
  victimAdminId: string;
  catalogueTariffId: number;
}

interface Request {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

interface CrossTenantCall {
  /** What of the victim's the attacker names, and how: reads after "the victim's". */
  names: string;
  /** Made from the victim's call; account_id is then the attacker's own wherever the call gives one. */
  build: (w: World, victimCall: Request) => Request;
  /** 403 or 404 unless the contract says otherwise. */
  expect?: readonly number[];
}

interface RouteEntry {
  /** A valid call on the victim's organization and resources: only the access guard may stop it. */
  victim: (w: World) => Request;
  /** The victim's resource(s) the call names: it is also made with the attacker's own account_id. */
  resource?: string;
  /** account_id may be left out (the tariff names the organization): also made without it. */
  accountOptional?: true;
  crossTenant?: CrossTenantCall[];
  /** From the method unless said: POST energy-sums only reads. */
  access?: 'read' | 'write';
  /** The OWNER's status on a fresh copy of the victim, when not the method's success status. */
  ownerStatus?: number;
}

/** The contract answers 400 for an id in a body that is not a record of the addressed organization. */
const FOREIGN_REFERENCE = [400] as const;

const account = (org: OrganizationFixture) => ({ account_id: org.accountId });
const meterRange = (w: World): Request => ({
  query: { ...account(w.victim), meter_sn: w.victim.meterSn, ...READINGS_RANGE },
});
const waterRange = (w: World): Request => ({
  query: { ...account(w.victim), meter_sn: w.victim.waterMeterSn, ...READINGS_RANGE },
});
const tariffPath = (w: World, id = w.victim.blockTariffId): Request => ({ params: { id }, query: account(w.victim) });
const itemPath = (w: World) => ({ id: w.victim.blockTariffId, itemId: w.victim.itemId });
const tierPath = (w: World) => ({ ...itemPath(w), blockId: w.victim.tierIds[0]! });

const underOwnTariff = (names: string): CrossTenantCall => ({
  names: `${names} under a tariff of his own`,
  build: (w, call) => ({ ...call, params: { ...call.params, id: w.attacker.blockTariffId } }),
});
const underOwnItem = (names: string): CrossTenantCall => ({
  names: `${names} under a tariff and item of his own`,
  build: (w, call) => ({
    ...call,
    params: { ...call.params, id: w.attacker.blockTariffId, itemId: w.attacker.itemId },
  }),
});

const ROUTES: Record<string, RouteEntry> = {
  'GET /api/v1/organizations/{id}': { victim: (w) => ({ params: { id: w.victim.accountId } }) },
  'PUT /api/v1/organizations/{id}': {
    victim: (w) => ({ params: { id: w.victim.accountId }, body: { name: 'Taken over', email: 'x@example.com' } }),
  },
  'DELETE /api/v1/organizations/{id}': {
    victim: (w) => ({ params: { id: w.victim.accountId } }),
    ownerStatus: 409, // the copy has building blocks, meters and tariffs
  },
  'GET /api/v1/organizations/{id}/members': { victim: (w) => ({ params: { id: w.victim.accountId } }) },
  'POST /api/v1/organizations/{id}/members': {
    victim: (w) => ({ params: { id: w.victim.accountId }, body: { userId: w.attackerUserId, role: 'OWNER' } }),
  },
  'PUT /api/v1/organizations/{id}/members/{userId}': {
    victim: (w) => ({ params: { id: w.victim.accountId, userId: w.victimAdminId }, body: { role: 'MEMBER' } }),
    crossTenant: [
      {
        names: 'ADMIN as a member of his own organization',
        build: (w) => ({ params: { id: w.attacker.accountId, userId: w.victimAdminId }, body: { role: 'MEMBER' } }),
      },
    ],
  },
  'DELETE /api/v1/organizations/{id}/members/{userId}': {
    victim: (w) => ({ params: { id: w.victim.accountId, userId: w.victimAdminId } }),
    crossTenant: [
      {
        names: 'ADMIN as a member of his own organization',
        build: (w) => ({ params: { id: w.attacker.accountId, userId: w.victimAdminId } }),
      },
    ],
  },

  'GET /api/v1/building_blocks': { victim: (w) => ({ query: account(w.victim) }) },
  'POST /api/v1/building_blocks': {
    victim: (w) => ({ body: blockBody(w.victim.accountId, { parent_id: w.victim.parentBlockId }) }),
    crossTenant: [
      {
        names: 'block as the parent of a new block of his own',
        build: (w) => ({ body: blockBody(w.attacker.accountId, { parent_id: w.victim.parentBlockId }) }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'GET /api/v1/building_blocks/{id}': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: account(w.victim) }),
    resource: 'building block',
  },
  'PUT /api/v1/building_blocks/{id}': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, body: { ...account(w.victim), name: 'Renamed campus' } }),
    resource: 'building block',
    crossTenant: [
      {
        names: 'block as the parent of a block of his own',
        build: (w) => ({
          params: { id: w.attacker.childBlockId },
          body: { ...account(w.attacker), parent_id: w.victim.parentBlockId },
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'DELETE /api/v1/building_blocks/{id}': {
    victim: (w) => ({ params: { id: w.victim.childBlockId }, query: account(w.victim) }),
    resource: 'building block',
  },
  'GET /api/v1/building_blocks/{id}/meters': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: account(w.victim) }),
    resource: 'building block',
  },
  'GET /api/v1/building_blocks/{id}/config': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: account(w.victim) }),
    resource: 'building block',
  },
  'PUT /api/v1/building_blocks/{id}/config': {
    victim: (w) => ({
      params: { id: w.victim.parentBlockId },
      body: { ...account(w.victim), load_meter_id: w.victim.meterId, load_tariff_id: w.victim.spareTariffId },
    }),
    resource: 'building block, meter and tariff',
    crossTenant: [
      {
        names: "meter in his own block's config",
        build: (w) => ({
          params: { id: w.attacker.parentBlockId },
          body: { ...account(w.attacker), load_meter_id: w.victim.meterId },
        }),
        expect: FOREIGN_REFERENCE,
      },
      {
        names: "meter as a submeter in his own block's config",
        build: (w) => ({
          params: { id: w.attacker.parentBlockId },
          body: { ...account(w.attacker), submeter_ids: [w.victim.meterId] },
        }),
        expect: FOREIGN_REFERENCE,
      },
      {
        names: "tariff in his own block's config",
        build: (w) => ({
          params: { id: w.attacker.parentBlockId },
          body: { ...account(w.attacker), load_tariff_id: w.victim.spareTariffId },
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'GET /api/v1/building_blocks/{id}/config/tariff-history': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: account(w.victim) }),
    resource: 'building block',
  },
  'DELETE /api/v1/building_blocks/{id}/config': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: account(w.victim) }),
    resource: 'building block',
  },
  'GET /api/v1/building_blocks/{id}/energy-cost': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: { ...account(w.victim), ...READINGS_RANGE } }),
    resource: 'building block',
  },
  'GET /api/v1/building_blocks/{id}/tariff-comparison': {
    victim: (w) => ({
      params: { id: w.victim.parentBlockId },
      query: { ...account(w.victim), ...READINGS_RANGE, tariff_ids: String(w.victim.blockTariffId) },
    }),
    resource: 'building block and tariff',
    crossTenant: [
      {
        names: 'tariff as a candidate for a block of his own',
        build: (w, call) => ({ ...call, params: { id: w.attacker.parentBlockId } }),
      },
    ],
  },
  'GET /api/v1/building_blocks/{id}/recovery': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: { ...account(w.victim), ...READINGS_RANGE } }),
    resource: 'building block',
  },
  'GET /api/v1/building_blocks/{id}/recovery/statements': {
    victim: (w) => ({ params: { id: w.victim.parentBlockId }, query: { ...account(w.victim), ...READINGS_RANGE } }),
    resource: 'building block',
  },
  'GET /api/v1/building_blocks/{id}/energy-profile': {
    victim: (w) => ({
      params: { id: w.victim.parentBlockId },
      query: { ...account(w.victim), ...READINGS_RANGE, group_by: 'hour', tz: 'Europe/London' },
    }),
    resource: 'building block',
  },

  'GET /api/v1/invoices': { victim: (w) => ({ query: account(w.victim) }) },
  'POST /api/v1/invoices': {
    victim: (w) => ({ body: invoiceBody(w.victim.accountId, w.victim.parentBlockId, 'INV-0002') }),
    crossTenant: [
      {
        names: 'building block for an invoice of his own',
        build: (w) => ({ body: invoiceBody(w.attacker.accountId, w.victim.parentBlockId, 'INV-0002') }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'POST /api/v1/invoices/draft': {
    victim: (w) => ({
      query: { ...account(w.victim), building_block_id: w.victim.parentBlockId, source: 'grid', ...READINGS_RANGE },
    }),
    access: 'read',
    ownerStatus: 200,
    crossTenant: [
      {
        names: 'building block for a draft of his own',
        build: (w, call) => ({ query: { ...call.query, account_id: w.attacker.accountId } }),
      },
    ],
  },
  'GET /api/v1/invoices/{id}': {
    victim: (w) => ({ params: { id: w.victim.invoiceId }, query: account(w.victim) }),
    resource: 'invoice',
  },
  'PUT /api/v1/invoices/{id}': {
    victim: (w) => ({
      params: { id: w.victim.invoiceId },
      body: { ...invoiceBody(w.victim.accountId, w.victim.parentBlockId), estimated: true },
    }),
    resource: 'invoice',
    crossTenant: [
      {
        names: 'building block for an invoice of his own',
        build: (w) => ({
          params: { id: w.attacker.invoiceId },
          body: invoiceBody(w.attacker.accountId, w.victim.parentBlockId),
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'DELETE /api/v1/invoices/{id}': {
    victim: (w) => ({ params: { id: w.victim.invoiceId }, query: account(w.victim) }),
    resource: 'invoice',
  },
  'GET /api/v1/invoices/{id}/check': {
    victim: (w) => ({ params: { id: w.victim.invoiceId }, query: account(w.victim) }),
    resource: 'invoice',
  },

  'GET /api/v1/gateways': { victim: (w) => ({ query: account(w.victim) }) },
  'POST /api/v1/gateways': {
    victim: (w) => ({ body: { ...account(w.victim), name: 'Planted logger', meter_ids: [w.victim.meterId] } }),
    crossTenant: [
      {
        names: 'meter for a gateway of his own',
        build: (w) => ({ body: { ...account(w.attacker), name: 'Planted logger', meter_ids: [w.victim.meterId] } }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'GET /api/v1/gateways/{id}': {
    victim: (w) => ({ params: { id: w.victim.gatewayId }, query: account(w.victim) }),
    resource: 'gateway',
  },
  'PUT /api/v1/gateways/{id}': {
    victim: (w) => ({ params: { id: w.victim.gatewayId }, body: { ...account(w.victim), name: 'Renamed logger' } }),
    resource: 'gateway',
    crossTenant: [
      {
        names: 'meter for a gateway of his own',
        build: (w) => ({
          params: { id: w.attacker.gatewayId },
          body: { ...account(w.attacker), meter_ids: [w.victim.meterId] },
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'DELETE /api/v1/gateways/{id}': {
    victim: (w) => ({ params: { id: w.victim.gatewayId }, query: account(w.victim) }),
    resource: 'gateway',
  },
  'POST /api/v1/gateways/{id}/rotate-key': {
    victim: (w) => ({ params: { id: w.victim.gatewayId }, query: account(w.victim) }),
    resource: 'gateway',
  },

  'GET /api/v1/meters': { victim: (w) => ({ query: account(w.victim) }) },
  'POST /api/v1/meters': {
    victim: (w) => ({
      body: meterBody(w.victim.accountId, w.victim.parentBlockId, { tariff_id: w.victim.blockTariffId }),
    }),
    crossTenant: [
      {
        names: 'building block for a new meter of his own',
        build: (w) => ({ body: meterBody(w.attacker.accountId, w.victim.parentBlockId) }),
        expect: FOREIGN_REFERENCE,
      },
      {
        names: 'tariff for a new meter of his own',
        build: (w) => ({
          body: meterBody(w.attacker.accountId, w.attacker.parentBlockId, { tariff_id: w.victim.blockTariffId }),
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'GET /api/v1/meters/{id}': {
    victim: (w) => ({ params: { id: w.victim.meterId }, query: account(w.victim) }),
    resource: 'meter',
  },
  'GET /api/v1/meters/{id}/tariff-history': {
    victim: (w) => ({ params: { id: w.victim.meterId }, query: account(w.victim) }),
    resource: 'meter',
  },
  'PUT /api/v1/meters/{id}': {
    victim: (w) => ({ params: { id: w.victim.meterId }, body: { ...account(w.victim), name: 'Renamed meter' } }),
    resource: 'meter',
    crossTenant: [
      {
        names: 'building block for a meter of his own',
        build: (w) => ({
          params: { id: w.attacker.meterId },
          body: { ...account(w.attacker), building_block_id: w.victim.parentBlockId },
        }),
        expect: FOREIGN_REFERENCE,
      },
      {
        names: 'tariff for a meter of his own',
        build: (w) => ({
          params: { id: w.attacker.meterId },
          body: { ...account(w.attacker), tariff_id: w.victim.spareTariffId },
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'DELETE /api/v1/meters/{id}': {
    victim: (w) => ({ params: { id: w.victim.meterId }, query: { ...account(w.victim), force: true } }),
    resource: 'meter',
  },

  'GET /api/v1/tariffs': { victim: (w) => ({ query: account(w.victim) }) },
  'POST /api/v1/tariffs': { victim: (w) => ({ body: tariffBody(w.victim.accountId) }) },
  'GET /api/v1/tariffs/{id}': { victim: (w) => tariffPath(w), resource: 'tariff' },
  'PUT /api/v1/tariffs/{id}': {
    victim: (w) => ({ params: { id: w.victim.blockTariffId }, body: { ...account(w.victim), name: 'Renamed tariff' } }),
    resource: 'tariff',
  },
  'DELETE /api/v1/tariffs/{id}': { victim: (w) => tariffPath(w, w.victim.spareTariffId), resource: 'tariff' },
  'GET /api/v1/tariffs/{id}/schedule': { victim: (w) => tariffPath(w, w.victim.touTariffId), resource: 'tariff' },
  'GET /api/v1/tariffs/{id}/cost': {
    victim: (w) => ({ params: { id: w.victim.blockTariffId }, query: meterRange(w).query }),
    resource: 'tariff and meter',
    crossTenant: [
      {
        names: 'tariff, pricing a meter of his own',
        build: (w, call) => ({ ...call, query: { ...call.query, meter_sn: w.attacker.meterSn } }),
      },
      underOwnTariff('meter'),
    ],
  },

  'GET /api/v1/tariffs/{id}/items': { victim: (w) => tariffPath(w), resource: 'tariff', accountOptional: true },
  'POST /api/v1/tariffs/{id}/items': {
    victim: (w) => ({
      params: { id: w.victim.blockTariffId },
      body: { ...account(w.victim), item_type_code: 'SERVICE', price: 12.5, season: 'ALL_YEAR' },
    }),
    resource: 'tariff',
    accountOptional: true,
  },
  'PUT /api/v1/tariffs/{id}/items/{itemId}': {
    victim: (w) => ({ params: itemPath(w), body: { ...account(w.victim), price: 0.5 } }),
    resource: 'tariff and item',
    accountOptional: true,
    crossTenant: [underOwnTariff('item')],
  },
  'DELETE /api/v1/tariffs/{id}/items/{itemId}': {
    victim: (w) => ({ params: itemPath(w), query: account(w.victim) }),
    resource: 'tariff and item',
    accountOptional: true,
    crossTenant: [underOwnTariff('item')],
  },
  'GET /api/v1/tariffs/{id}/items/{itemId}/blocks': {
    victim: (w) => ({ params: itemPath(w), query: account(w.victim) }),
    resource: 'tariff and item',
    accountOptional: true,
    crossTenant: [underOwnTariff('item')],
  },
  'POST /api/v1/tariffs/{id}/items/{itemId}/blocks': {
    victim: (w) => ({
      params: itemPath(w),
      query: account(w.victim),
      body: [
        { block_index: 0, upper_limit: 100, unit_price_cents: 90 },
        { block_index: 1, upper_limit: null, unit_price_cents: 300 },
      ],
    }),
    resource: 'tariff and item',
    accountOptional: true,
    crossTenant: [underOwnTariff('item')],
  },
  'PUT /api/v1/tariffs/{id}/items/{itemId}/blocks/{blockId}': {
    victim: (w) => ({ params: tierPath(w), body: { ...account(w.victim), unit_price_cents: 175 } }),
    resource: 'tariff, item and block',
    accountOptional: true,
    crossTenant: [underOwnTariff('item and block'), underOwnItem('block')],
  },
  'DELETE /api/v1/tariffs/{id}/items/{itemId}/blocks/{blockId}': {
    victim: (w) => ({ params: tierPath(w), query: account(w.victim) }),
    resource: 'tariff, item and block',
    accountOptional: true,
    crossTenant: [underOwnTariff('item and block'), underOwnItem('block')],
  },

  'GET /api/v1/tariffs/{id}/transitions': { victim: (w) => tariffPath(w), resource: 'tariff' },
  'POST /api/v1/tariffs/{id}/transitions': {
    victim: (w) => ({
      params: { id: w.victim.spareTariffId },
      body: { ...account(w.victim), successor_id: w.victim.touTariffId, effective_from: '2098-06-01T00:00:00Z' },
    }),
    resource: 'predecessor and successor tariffs',
    crossTenant: [
      {
        names: 'tariff as the successor of a tariff of his own',
        build: (w, call) => ({ ...call, params: { id: w.attacker.spareTariffId } }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'PUT /api/v1/tariffs/{id}/transitions': {
    victim: (w) => ({ params: { id: w.victim.blockTariffId }, body: { ...account(w.victim), notes: 'Rescheduled' } }),
    resource: 'tariff',
    crossTenant: [
      {
        names: "tariff as the new successor in his own tariff's transition",
        build: (w) => ({
          params: { id: w.attacker.blockTariffId },
          body: { ...account(w.attacker), successor_id: w.victim.touTariffId },
        }),
        expect: FOREIGN_REFERENCE,
      },
    ],
  },
  'DELETE /api/v1/tariffs/{id}/transitions': { victim: (w) => tariffPath(w), resource: 'tariff' },
  'POST /api/v1/tariffs/catalogue/{id}/clone': {
    victim: (w) => ({ params: { id: w.catalogueTariffId }, body: { ...account(w.victim), name: 'Cloned' } }),
    crossTenant: [
      {
        names: 'tariff as the catalogue source',
        build: (w, call) => ({ ...call, params: { id: w.victim.blockTariffId } }),
      },
    ],
  },

  'POST /api/v1/timeseries/electricity/readings': {
    victim: (w) => ({
      body: {
        ...account(w.victim),
        meter_sn: w.victim.meterSn,
        readings: [{ ts: READINGS_RANGE.start, import_kwh: 99 }],
      },
    }),
    resource: 'meter',
    ownerStatus: 200,
  },
  'GET /api/v1/timeseries/electricity/energy-profile': { victim: meterRange, resource: 'meter' },
  'POST /api/v1/timeseries/water/readings': {
    victim: (w) => ({
      body: {
        ...account(w.victim),
        meter_sn: w.victim.waterMeterSn,
        readings: [{ ts: READINGS_RANGE.end, volume_kl: 0.5 }],
      },
    }),
    resource: 'meter',
    ownerStatus: 200,
  },
  'POST /api/v1/meters/{id}/register-reads': {
    victim: (w) => ({
      params: { id: w.victim.waterMeterId },
      body: { ...account(w.victim), reads: [{ read_at: '2025-03-05T00:00:00.000Z', register_kl: 120 }] },
    }),
    resource: 'meter',
    ownerStatus: 200,
  },
  'GET /api/v1/meters/{id}/register-reads': {
    victim: (w) => ({ params: { id: w.victim.waterMeterId }, query: account(w.victim) }),
    resource: 'meter',
  },
  'GET /api/v1/timeseries/water/volume-profile': { victim: waterRange, resource: 'meter' },
  'GET /api/v1/timeseries/water/volume-sum': { victim: waterRange, resource: 'meter' },
  'GET /api/v1/timeseries/electricity/power-profile': { victim: meterRange, resource: 'meter' },
  'GET /api/v1/timeseries/electricity/latest-power': { victim: meterRange, resource: 'meter' },
  'GET /api/v1/timeseries/electricity/energy-sum': { victim: meterRange, resource: 'meter' },
  'POST /api/v1/timeseries/electricity/energy-sums': {
    victim: (w) => ({ body: { ...account(w.victim), meter_sns: [w.victim.meterSn], ...READINGS_RANGE } }),
    access: 'read',
    resource: 'meter',
    crossTenant: [
      {
        names: 'meter among meters of his own',
        build: (w, call) => ({
          body: { ...(call.body as object), meter_sns: [w.attacker.meterSn, w.victim.meterSn] },
        }),
      },
    ],
  },
};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function parseRoute(route: string): { method: Method; template: string } {
  const [method, template] = route.split(' ');
  return { method: method as Method, template: template! };
}

function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/** The path parameters that are integer ids: all but the organization and user ids (uuids). */
function integerParamNames(template: string): string[] {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return template.startsWith('/api/v1/organizations/') ? [] : names.filter((name) => name !== 'userId');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The same call with account_id set to accountId (or removed) wherever the query or body gives one. */
function withAccount(request: Request, accountId: string | undefined): Request {
  const swap = <T>(part: T): T => {
    if (!isRecord(part) || !('account_id' in part)) return part;
    const { account_id: _given, ...rest } = part;
    return (accountId === undefined ? rest : { ...rest, account_id: accountId }) as T;
  };
  return { ...request, query: swap(request.query), body: swap(request.body) };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** value with every uuid in it (keys and values, at any depth) in upper case. */
function upperCaseUuids<T>(value: T): T {
  if (typeof value === 'string') return value.replace(UUID, (id) => id.toUpperCase()) as T;
  if (Array.isArray(value)) return value.map(upperCaseUuids) as T;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, upperCaseUuids(v)])) as T;
  return value;
}

/** The same call with every uuid (account_id, organization and user ids) in params, query and body upper-cased. */
function inUpperCase(request: Request): Request {
  const upper = upperCaseUuids(request);
  expect(upper).not.toEqual(request);
  return upper;
}

/** Every uuid an answer shows is lower-case. */
function expectLowerCaseUuids(res: Reply) {
  const ids = JSON.stringify(res.body ?? null).match(UUID) ?? [];
  expect(ids.filter((id) => id !== id.toLowerCase())).toEqual([]);
}

const UNKNOWN_KEY = 'unexpected_key';

/** The call's body with a key the endpoint does not know (in the first element of an array body), and where the error names it. */
function withUnknownKey(body: unknown): { body: unknown; path: string } | undefined {
  if (Array.isArray(body) && isRecord(body[0])) {
    return { body: [{ ...body[0], [UNKNOWN_KEY]: 1 }, ...body.slice(1)], path: `0.${UNKNOWN_KEY}` };
  }
  if (isRecord(body)) return { body: { ...body, [UNKNOWN_KEY]: 1 }, path: UNKNOWN_KEY };
  return undefined;
}

/** Integer ids that are not plain decimal digits: each is 400, never read as the id it resembles. */
const INTEGER_ID_FORMS = [
  (id: number) => `0x${id.toString(16)}`,
  (id: number) => `+${id}`,
  (id: number) => `${id}.0`,
  (id: number) => `000${id}`,
  (id: number) => `${id}e0`,
  (id: number) => ` ${id}`,
];

function crossTenantCalls(entry: RouteEntry): CrossTenantCall[] {
  const calls: CrossTenantCall[] = [];
  if (entry.resource) {
    calls.push({ names: `${entry.resource}, with his own account_id`, build: (_w, victimCall) => victimCall });
  }
  if (entry.accountOptional) {
    calls.push({
      names: `${entry.resource}, without account_id`,
      build: (_w, victimCall) => withAccount(victimCall, undefined),
    });
  }
  return [...calls, ...(entry.crossTenant ?? [])];
}

const isWrite = (route: string, entry: RouteEntry) =>
  (entry.access ?? (route.startsWith('GET ') ? 'read' : 'write')) === 'write';

function successStatus(route: string, entry: RouteEntry): number {
  if (entry.ownerStatus !== undefined) return entry.ownerStatus;
  const { method } = parseRoute(route);
  return method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200;
}

let t: TestApp;
let documented: string[];
let w: World;
let users: { victimOwner: TestUser; victimAdmin: TestUser; victimMember: TestUser; attacker: TestUser };
let victimBefore: Awaited<ReturnType<typeof snapshotOrganization>>;

function send(route: string, request: Request, token?: string): Promise<Reply> {
  const { method, template } = parseRoute(route);
  return call(t.app, method, fill(template, request.params), { token, query: request.query, body: request.body });
}

function expectRefused(res: Reply, statuses: readonly number[]) {
  expect(statuses, JSON.stringify(res.body)).toContain(res.status);
  expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
  expect(res.body).not.toHaveProperty('data');
}

beforeAll(async () => {
  t = await startTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
  const [victimOwner, victimAdmin, victimMember, attacker] = await Promise.all([
    registerUser(t.app, 'victim-owner'),
    registerUser(t.app, 'victim-admin'),
    registerUser(t.app, 'victim-member'),
    registerUser(t.app, 'attacker'),
  ]);
  users = { victimOwner, victimAdmin, victimMember, attacker };
  const victim = await buildOrganization(
    victimOwner,
    [
      { user: victimAdmin, role: 'ADMIN' },
      { user: victimMember, role: 'MEMBER' },
    ],
    'Victim Energy',
  );
  const attackerOrganization = await buildOrganization(attacker, [], 'Attacker Energy');
  const catalogue = await victimOwner.client.get('/api/v1/tariffs/catalogue', { limit: 1 });
  w = {
    victim,
    attacker: attackerOrganization,
    attackerUserId: attacker.id,
    victimAdminId: victimAdmin.id,
    catalogueTariffId: catalogue.body.data[0].id,
  };
  victimBefore = await snapshotOrganization(t.db, victim.accountId);
}, 120_000);
afterAll(async () => t.close());

describe('the route table', () => {
  it('classifies every documented operation as organization-scoped or not', () => {
    const unclassified = documented.filter((op) => !(op in ROUTES) && !(op in NOT_ORGANIZATION_SCOPED));
    expect(unclassified).toEqual([]);
  });

  it('names only documented operations, each in one list', () => {
    const named = [...Object.keys(ROUTES), ...Object.keys(NOT_ORGANIZATION_SCOPED)];
    expect(named.filter((op) => !documented.includes(op))).toEqual([]);
    expect(Object.keys(ROUTES).filter((op) => op in NOT_ORGANIZATION_SCOPED)).toEqual([]);
  });
});

describe.each(Object.entries(ROUTES))('%s', (route, entry) => {
  it('answers 401 without a token', async () => {
    const res = await send(route, entry.victim(w));
    expectRefused(res, [401]);
    expect(res.body.message).toBe('Authentication required');
  });

  it("answers 403 to another organization's OWNER naming the victim's account", async () => {
    expectRefused(await send(route, entry.victim(w), users.attacker.token), [403]);
  });

  it("answers 403 to another organization's OWNER naming the victim's account in upper case", async () => {
    expectRefused(await send(route, inUpperCase(entry.victim(w)), users.attacker.token), [403]);
  });

  it("answers 400 to the victim's OWNER for a body key the endpoint does not know", async () => {
    const victimCall = entry.victim(w);
    const unknown = withUnknownKey(victimCall.body);
    if (!unknown) {
      expect(victimCall.body).toBeUndefined();
      return;
    }
    const res = await send(route, { ...victimCall, body: unknown.body }, users.victimOwner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toEqual(invalid(`${unknown.path}: Unrecognized key "${UNKNOWN_KEY}"`));
  });

  const integerParams = integerParamNames(parseRoute(route).template);
  if (integerParams.length > 0) {
    it("answers 400 to the victim's OWNER for an integer id that is not plain decimal digits", async () => {
      const victimCall = entry.victim(w);
      for (const name of integerParams) {
        const id = victimCall.params?.[name];
        expect(typeof id, name).toBe('number');
        for (const form of INTEGER_ID_FORMS) {
          const params = { ...victimCall.params, [name]: form(id as number) };
          const res = await send(route, { ...victimCall, params }, users.victimOwner.token);
          expect(res.status, `${name}=${params[name]}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body).toEqual(invalidPath(`${name}: Must be a whole number in plain decimal digits`));
        }
      }
    });
  }

  const crossCalls = crossTenantCalls(entry);
  if (crossCalls.length > 0) {
    it.each(crossCalls.map((c) => [c.names, c] as const))(
      "refuses the attacker naming the victim's %s",
      async (_names, cross) => {
        const victimCall = entry.victim(w);
        const request = withAccount(cross.build(w, victimCall), w.attacker.accountId);
        expect(request).not.toEqual(victimCall);
        expectRefused(await send(route, request, users.attacker.token), cross.expect ?? [403, 404]);
      },
    );
  }

  if (isWrite(route, entry)) {
    it('answers 403 to a MEMBER of the victim, uuids in any case', async () => {
      expectRefused(await send(route, entry.victim(w), users.victimMember.token), [403]);
      expectRefused(await send(route, inUpperCase(entry.victim(w)), users.victimMember.token), [403]);
    });
  } else {
    it("answers 200 to the victim's MEMBER and OWNER, uuids in any case, showing them lower-case", async () => {
      for (const user of [users.victimMember, users.victimOwner]) {
        for (const request of [entry.victim(w), inUpperCase(entry.victim(w))]) {
          const res = await send(route, request, user.token);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          // A CSV answer (the statements) is text with its BOM; every other answer the success envelope.
          expect(typeof res.body === 'string' ? res.body.startsWith('\uFEFF') : res.body.success).toBe(true);
          expectLowerCaseUuids(res);
        }
      }
    });
  }
});

/** The operations a gateway's key opens: the readings routes, and no other. */
const GATEWAY_ROUTES = ['POST /api/v1/timeseries/electricity/readings'];
/** Path parameters for the operations outside organizations: refused before they are read. */
const ANY_PARAMS = { id: 1, userId: '00000000-0000-4000-8000-000000000009' };
const PUBLIC_ROUTES = ['POST /api/v1/auth/signup', 'POST /api/v1/auth/login', 'POST /api/v1/auth/refresh'];
const summary = (res: Reply) => `${res.status} ${res.body?.error ?? ''}`;

describe("a gateway's key", () => {
  const gatewayCall = (route: string, request: Request, key: string) => {
    const { method, template } = parseRoute(route);
    return call(t.app, method, fill(template, request.params), {
      authorization: `Gateway ${key}`,
      query: request.query,
      body: request.body,
    });
  };

  it('is no user on every other operation: 401 (public ones read no credential)', async () => {
    const wrong: string[] = [];
    for (const route of documented.filter((op) => !GATEWAY_ROUTES.includes(op))) {
      const res = await gatewayCall(route, ROUTES[route]?.victim(w) ?? { params: ANY_PARAMS }, w.victim.gatewayKey);
      const expected = PUBLIC_ROUTES.includes(route) ? res.status !== 401 : res.status === 401;
      if (!expected) wrong.push(`${route}: ${summary(res)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("of another organization stores nothing of the victim's: 403", async () => {
    const route = GATEWAY_ROUTES[0]!;
    const res = await gatewayCall(route, ROUTES[route]!.victim(w), w.attacker.gatewayKey);
    expectRefused(res, [403]);
  });
});

describe("the victim's data", () => {
  it('is unchanged after every call above', async () => {
    const counts = Object.fromEntries(Object.entries(victimBefore).map(([table, rows]) => [table, rows.length]));
    expect(counts).toEqual({
      accounts: 1,
      memberships: 3,
      building_blocks: 2,
      meters: 2,
      energy_dashboard_configs: 1,
      tariffs: 3,
      tariff_items: 1,
      tariff_blocks: 2,
      tariff_transitions: 1,
      tariff_transition_applications: 0,
      tariff_history: 2,
      readings: 96,
      readings_hourly: 48,
      readings_daily: 2,
      register_reads: 2,
      invoices: 1,
      gateways: 1,
      gateway_meters: 1,
    });
    expect(await snapshotOrganization(t.db, w.victim.accountId)).toEqual(victimBefore);
  });
});

describe('operations outside organizations', () => {
  it("list none of the victim's organizations to the attacker asking for its owner's", async () => {
    const res = await users.attacker.client.get(`/api/v1/auth/users/${users.victimOwner.id}/organizations`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: [], count: 0 });
  });

  it("do not show an organization's tariff as a catalogue tariff", async () => {
    const res = await users.attacker.client.get(`/api/v1/tariffs/catalogue/${w.victim.blockTariffId}`);
    expectRefused(res, [404]);
  });

  it("refuse a user's token on the admin routes", async () => {
    const res = await users.attacker.client.delete(`/api/v1/admin/users/${users.victimOwner.id}`);
    expectRefused(res, [401]);
  });
});

describe("the table's write calls are valid: the victim's OWNER gets through on a fresh copy", () => {
  const writes = Object.entries(ROUTES).filter(([route, entry]) => isWrite(route, entry));
  const cases = writes.flatMap(([route, entry]) => [
    [route, 'uuids as given', entry, (request: Request) => request] as const,
    [route, 'every uuid upper-cased', entry, inUpperCase] as const,
  ]);
  it.each(cases)('%s, %s', async (route, _case, entry, transform) => {
    const copy = await buildOrganization(
      users.victimOwner,
      [{ user: users.victimAdmin, role: 'ADMIN' }],
      'Victim copy',
    );
    const res = await send(route, transform(entry.victim({ ...w, victim: copy })), users.victimOwner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(successStatus(route, entry));
    expectLowerCaseUuids(res);
  });
});

describe('a removed member, whatever the case of the ids', () => {
  const blocks = (accountId: string) => ({ account_id: accountId });

  it.each([
    ['mixed case', (id: string) => id.replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))],
    ['upper case', (id: string) => id.toUpperCase()],
  ])('loses access at once after calling with account_id in %s', async (_case, spell) => {
    const org = await buildOrganization(users.victimOwner, [{ user: users.victimAdmin, role: 'ADMIN' }], 'Removal');
    const admin = users.victimAdmin.client;
    const spelled = spell(org.accountId);
    expect(spelled).not.toBe(org.accountId);
    for (const accountId of [spelled, org.accountId]) {
      expect((await admin.get('/api/v1/building_blocks', blocks(accountId))).status).toBe(200);
    }

    const removed = await users.victimOwner.client.delete(
      `/api/v1/organizations/${spell(org.accountId)}/members/${spell(users.victimAdmin.id)}`,
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);

    for (const accountId of [spelled, org.accountId, org.accountId.toUpperCase()]) {
      const res = await admin.get('/api/v1/building_blocks', blocks(accountId));
      expect(res.status, accountId).toBe(403);
      expect(res.body).toEqual(FORBIDDEN_NOT_MEMBER);
      const write = await admin.put(`/api/v1/meters/${org.meterId}`, { account_id: accountId, name: 'Still mine' });
      expect(write.status, accountId).toBe(403);
    }
  });
});
