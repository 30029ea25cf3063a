import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import { failures, noContent } from '../../http/responses.ts';
import { LIST_PARAMETERS, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { meterResponses } from './meters.responses.ts';
import {
  blockMetersQuery,
  createMeterBody,
  deleteMeterQuery,
  listMetersQuery,
  updateMeterBody,
} from './meters.schemas.ts';
import type { MetersService } from './meters.service.ts';

const tags = ['Meters'];
const base = '/api/v1/meters';
const meterParams = withParamExamples(idParams, { id: 1 });
const NOT_FOUND = 'Meter not found';
const CHECKS = recordChecks('meter');
const SERIAL_TAKEN = 'A meter with this meter_sn already exists';
const LISTED = `${LIST_PARAMETERS} query searches name and serial; sortBy also takes meter_sn, meter_type, building_block_id.`;

export function registerMeterRoutes(app: App, meters: MetersService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listMeters',
        summary: 'List meters',
        description: `The organization's meters, filtered by building_block_id and meter_type. ${LISTED} ${ROLE_NEEDED.read}`,
        querystring: withParamExamples(listMetersQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: meterResponses.list, ...failures({ 400: true, 403: true }) },
      },
    },
    async (req) => okList(await meters.list(req.auth, req.query)),
  );
  app.get(
    '/api/v1/building_blocks/:id/meters',
    {
      schema: {
        tags,
        operationId: 'listBuildingBlockMeters',
        summary: 'List the meters of a building block',
        description: `The meters whose building_block_id is the block in the path (not those of its children), filtered by meter_type. ${LISTED} ${ROLE_NEEDED.read} ${recordChecks('building block')}`,
        params: withParamExamples(idParams, { id: 1 }),
        querystring: withParamExamples(blockMetersQuery, { account_id: EXAMPLE.accountId }),
        response: {
          200: meterResponses.list,
          ...failures({ 400: true, 403: true, 404: 'Building block not found' }),
        },
      },
    },
    async (req) => okList(await meters.listOfBlock(req.auth, req.params.id, req.query)),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createMeter',
        summary: 'Create a meter',
        description: `Creates a meter on a building block of the organization, optionally priced by one of its tariffs (tariff_id); interval_minutes is 5, 10, 15, 30 (default) or 60. A block or tariff that is not the organization's: 400; a serial already in use anywhere in the service: 409. ${ROLE_NEEDED.write}`,
        body: withExample(createMeterBody, {
          account_id: EXAMPLE.accountId,
          building_block_id: 1,
          meter_sn: 'DEMO-EV-001',
          meter_type: 'EV',
          name: 'Car park chargers',
          interval_minutes: 15,
        }),
        response: {
          201: meterResponses.created,
          ...failures({
            400: 'building_block_id: Building block 99 not found in this organization',
            403: true,
            409: SERIAL_TAKEN,
          }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await meters.create(req.auth, req.body))),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'getMeter',
        summary: 'Get a meter',
        description: `${ROLE_NEEDED.read} ${CHECKS}`,
        params: meterParams,
        querystring: withParamExamples(accountQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: meterResponses.meter, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => ok(await meters.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateMeter',
        summary: 'Update a meter',
        description: `Changes the fields sent; tariff_id null removes the meter's tariff. A block or tariff that is not the organization's: 400; a serial in use: 409. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: meterParams,
        body: withExample(updateMeterBody, { account_id: EXAMPLE.accountId, name: 'Grid supply (main incomer)' }),
        response: {
          200: meterResponses.meter,
          ...failures({
            400: 'tariff_id: Tariff 99 not found in this organization',
            403: true,
            404: NOT_FOUND,
            409: SERIAL_TAKEN,
          }),
        },
      },
    },
    async (req) => ok(await meters.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteMeter',
        summary: 'Delete a meter',
        description: `Deletes the meter; dashboard configs naming it forget it. A meter with readings: 409 unless force=true, which deletes its readings too. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: meterParams,
        querystring: withParamExamples(deleteMeterQuery, { account_id: EXAMPLE.accountId }),
        response: {
          204: noContent,
          ...failures({
            400: true,
            403: true,
            404: NOT_FOUND,
            409: 'The meter has readings; delete it with force=true to delete them too',
          }),
        },
      },
    },
    async (req, reply) => {
      await meters.remove(req.auth, req.query.account_id, req.params.id, req.query.force);
      return reply.code(204).send();
    },
  );
}
