import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import { failures, noContent } from '../../http/responses.ts';
import { LIST_PARAMETERS, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { gatewayResponses } from './gateways.responses.ts';
import { createGatewayBody, listGatewaysQuery, updateGatewayBody } from './gateways.schemas.ts';
import type { GatewaysService } from './gateways.service.ts';

const tags = ['Gateways'];
const base = '/api/v1/gateways';
const gatewayParams = withParamExamples(idParams, { id: 1 });
const accountParams = withParamExamples(accountQuery, { account_id: EXAMPLE.accountId });
const NOT_FOUND = 'Gateway not found';
const CHECKS = recordChecks('gateway');
const FOREIGN_METER = 'meter_ids.0: Meter 99 not found in this organization';
const KEY_USE =
  'The gateway pushes readings of its meters with `authorization: Gateway <key>` to the readings routes (account_id may then be left out), or over MQTT when the service has MQTT_URL.';

export function registerGatewayRoutes(app: App, gateways: GatewaysService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listGateways',
        summary: 'List gateways',
        description: `The organization's gateways (data loggers that push readings), with when each last pushed; never their keys. ${LIST_PARAMETERS} query searches name and description; sortBy also takes last_seen_at. ${ROLE_NEEDED.read}`,
        querystring: withParamExamples(listGatewaysQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: gatewayResponses.list, ...failures({ 400: true, 403: true }) },
      },
    },
    async (req) => {
      const { account_id: accountId, ...list } = req.query;
      return okList(await gateways.list(req.auth, accountId, list));
    },
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createGateway',
        summary: 'Create a gateway',
        description: `Creates a gateway of the organization for the meters named (meter_ids, distinct, meters of the organization: 400 otherwise) and answers its key, \`ugw_\` and 192 random bits: shown in this answer only, stored hashed. ${KEY_USE} ${ROLE_NEEDED.write}`,
        body: withExample(createGatewayBody, {
          account_id: EXAMPLE.accountId,
          name: 'Main DB logger',
          description: 'Modbus concentrator in the main distribution board',
          meter_ids: [1, 2],
        }),
        response: { 201: gatewayResponses.created, ...failures({ 400: FOREIGN_METER, 403: true }) },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await gateways.create(req.auth, req.body))),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'getGateway',
        summary: 'Get a gateway',
        description: `${ROLE_NEEDED.read} ${CHECKS}`,
        params: gatewayParams,
        querystring: accountParams,
        response: { 200: gatewayResponses.gateway, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => ok(await gateways.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateGateway',
        summary: 'Update a gateway',
        description: `Changes the fields sent: name, description, meter_ids (the whole list, meters of the organization: 400 otherwise). The key stays. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: gatewayParams,
        body: withExample(updateGatewayBody, { account_id: EXAMPLE.accountId, meter_ids: [1, 2, 3] }),
        response: {
          200: gatewayResponses.gateway,
          ...failures({ 400: FOREIGN_METER, 403: true, 404: NOT_FOUND }),
        },
      },
    },
    async (req) => ok(await gateways.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteGateway',
        summary: 'Delete a gateway',
        description: `Deletes the gateway; its key opens nothing from now on, in every process. The readings it pushed stay. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: gatewayParams,
        querystring: accountParams,
        response: { 204: noContent, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req, reply) => {
      await gateways.remove(req.auth, req.query.account_id, req.params.id);
      return reply.code(204).send();
    },
  );
  app.post(
    `${base}/:id/rotate-key`,
    {
      schema: {
        tags,
        operationId: 'rotateGatewayKey',
        summary: "Rotate a gateway's key",
        description: `Answers a new key, shown in this answer only; the old one opens nothing from now on, in every process (a push already storing with it finishes first). ${ROLE_NEEDED.write} ${CHECKS}`,
        params: gatewayParams,
        querystring: accountParams,
        response: { 201: gatewayResponses.rotated, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(ok(await gateways.rotateKey(req.auth, req.query.account_id, req.params.id))),
  );
}
