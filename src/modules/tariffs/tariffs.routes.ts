import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery } from '../../http/fields.ts';
import { failures, noContent } from '../../http/responses.ts';
import { LIST_PARAMETERS, ROLE_NEEDED, TARIFF_CHECKS } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { OVERLAPPING_VERSIONS } from './tariff-rules.ts';
import { tariffResponses } from './tariffs.responses.ts';
import { createTariffBody, tariffIdParams, tariffListQuery, updateTariffBody } from './tariffs.schemas.ts';
import type { TariffsService } from './tariffs.service.ts';

const tags = ['Tariffs'];
const base = '/api/v1/tariffs';
const tariffParams = withParamExamples(tariffIdParams, { id: 1001 });
const tariffAccount = withParamExamples(accountQuery, { account_id: EXAMPLE.accountId });
const NOT_FOUND = 'Tariff not found';
const REFERENCED = 'The tariff is still referenced by a meter';

export function registerTariffRoutes(app: App, tariffs: TariffsService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listTariffs',
        summary: 'List tariffs',
        description: `The organization's live tariffs (without their items), filtered by meter_type, tariff_type and dso_id. ${LIST_PARAMETERS} query searches name and description; sortBy also takes effective_from, effective_to, meter_type, tariff_type. ${ROLE_NEEDED.read}`,
        querystring: withParamExamples(tariffListQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: tariffResponses.list, ...failures({ 400: true, 403: true }) },
      },
    },
    async (req) => okList(await tariffs.list(req.auth, req.query)),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createTariff',
        summary: 'Create a tariff',
        description: `Creates a tariff (FLAT by default; add its priced items next). effective_to must not be before effective_from; a TIME_OF_USE tariff needs tou_schedule_id of an existing schedule, other types must not have one; tax_rate is a percentage (0 to 100); dso_id must be a DSO. Eligibility (extensions §13.1): customer_classes, min_nmd_kva <= max_nmd_kva (0 to 1,000,000 kVA), family; two versions of one family whose effective dates overlap: 409. ${ROLE_NEEDED.write}`,
        body: withExample(createTariffBody, {
          account_id: EXAMPLE.accountId,
          name: 'Site flat rate 2026/27',
          tariff_type: 'FLAT',
          dso_id: 1,
          effective_from: '2026-04-01',
          effective_to: '2027-03-31',
          currency: 'ZAR',
          tax_rate: 15,
        }),
        response: {
          201: tariffResponses.created,
          ...failures({
            400: 'tou_schedule_id: Required for a TIME_OF_USE tariff',
            403: true,
            409: OVERLAPPING_VERSIONS,
          }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await tariffs.create(req.auth, req.body))),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'getTariff',
        summary: 'Get a tariff',
        description: `The tariff with its items (each with its tiers) and its DSO. ${ROLE_NEEDED.read} ${TARIFF_CHECKS}`,
        params: tariffParams,
        querystring: tariffAccount,
        response: { 200: tariffResponses.tariff, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => ok(await tariffs.get(req.auth, req.params.id, req.query.account_id)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateTariff',
        summary: 'Update a tariff',
        description: `Changes the fields sent; the rules of creation hold for the result. deleted_at (a time) deletes the tariff, which a meter, config or transition naming it prevents (409); dates or a family that make two versions of one family overlap: 409. ${ROLE_NEEDED.write} ${TARIFF_CHECKS}`,
        params: tariffParams,
        body: withExample(updateTariffBody, {
          account_id: EXAMPLE.accountId,
          notes: 'Prices checked against the 2025/26 schedule',
        }),
        response: {
          200: tariffResponses.tariff,
          ...failures({ 400: 'Catalogue is read-only', 403: true, 404: NOT_FOUND, 409: REFERENCED }),
        },
      },
    },
    async (req) => ok(await tariffs.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteTariff',
        summary: 'Delete a tariff',
        description: `Deletes the tariff (it is gone from reads and lists). A tariff that a meter, a dashboard config or a transition names: 409. ${ROLE_NEEDED.write} ${TARIFF_CHECKS}`,
        params: tariffParams,
        querystring: tariffAccount,
        response: { 204: noContent, ...failures({ 400: true, 403: true, 404: NOT_FOUND, 409: REFERENCED }) },
      },
    },
    async (req, reply) => {
      await tariffs.remove(req.auth, req.params.id, req.query.account_id);
      return reply.code(204).send();
    },
  );
  app.get(
    `${base}/:id/schedule`,
    {
      schema: {
        tags,
        operationId: 'getTariffSchedule',
        summary: "Get a tariff's time-of-use schedule",
        description: `The schedule of a TIME_OF_USE tariff (schedule 3 when it names none), with its DSO and seasons, each with its rules. Another tariff type: 400. ${ROLE_NEEDED.read} ${TARIFF_CHECKS}`,
        params: tariffParams,
        querystring: tariffAccount,
        response: {
          200: tariffResponses.schedule,
          ...failures({ 400: 'Tariff 1002 is not TIME_OF_USE', 403: true, 404: NOT_FOUND }),
        },
      },
    },
    async (req) => ok(await tariffs.schedule(req.auth, req.params.id, req.query.account_id)),
  );
}
