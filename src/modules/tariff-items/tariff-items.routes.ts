import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { failures, noContent } from '../../http/responses.ts';
import { LIST_PARAMETERS, OPTIONAL_ACCOUNT, ROLE_NEEDED, TARIFF_CHECKS } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { optionalAccountQuery } from './tariff-blocks.schemas.ts';
import { tariffItemResponses } from './tariff-items.responses.ts';
import { createItemsBody, itemListQuery, itemParams, tariffIdParams, updateItemBody } from './tariff-items.schemas.ts';
import type { TariffItemsService } from './tariff-items.service.ts';

const tags = ['Tariff items'];
const base = '/api/v1/tariffs/:id/items';
const tariffAccount = withParamExamples(optionalAccountQuery, { account_id: EXAMPLE.accountId });
const itemAddress = withParamExamples(itemParams, { id: 1001, itemId: 100004 });
const CHECKS = `${OPTIONAL_ACCOUNT} ${TARIFF_CHECKS} An unknown item of the tariff: 404.`;
const DUPLICATE = 'The tariff already has an item ADMINISTRATION for season ALL_YEAR';

const NEVER_APPLIES =
  "A seasonal item that can never apply (its season is not in the calendar of the tariff's DSO, or the tariff has no DSO, and its type has other items) is stored, and the answer's message names it; otherwise message is null.";

export function registerTariffItemRoutes(app: App, items: TariffItemsService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listTariffItems',
        summary: "List a tariff's items",
        description: `The tariff's priced items, each with its tiers. ${LIST_PARAMETERS} query searches item type and season; sortBy: created_at, updated_at, id, item_type_code, season, price. ${ROLE_NEEDED.read} ${OPTIONAL_ACCOUNT} ${TARIFF_CHECKS}`,
        params: withParamExamples(tariffIdParams, { id: 1001 }),
        querystring: withParamExamples(itemListQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: tariffItemResponses.list, ...failures({ 400: true, 403: true, 404: 'Tariff not found' }) },
      },
    },
    async (req) => okList(await items.list(req.auth, req.params.id, req.query)),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'addTariffItems',
        summary: 'Add items to a tariff',
        description: `Adds one item (an object, which may carry account_id) or several (an array), each with its tiers (blocks) for a BLOCK tariff; season defaults to SUMMER. price: -1,000,000 to 1,000,000 with at most 6 decimals, in the tariff currency per unit of the item type. All or nothing: an item type and season the tariff already has (or that the request repeats) is 409 and adds none. ${NEVER_APPLIES} ${ROLE_NEEDED.write} ${CHECKS}`,
        params: withParamExamples(tariffIdParams, { id: 1001 }),
        querystring: tariffAccount,
        body: withExample(createItemsBody, {
          account_id: EXAMPLE.accountId,
          item_type_code: 'ADMINISTRATION',
          price: 1.55,
          season: 'ALL_YEAR',
        }),
        response: {
          201: tariffItemResponses.created,
          ...failures({
            400: 'price: Must have at most 6 decimals',
            403: true,
            404: 'Tariff not found',
            409: DUPLICATE,
          }),
        },
      },
    },
    async (req, reply) => {
      const created = await items.create(req.auth, req.params.id, req.query.account_id, req.body);
      return reply.code(201).send(ok(created.items, created.message));
    },
  );
  app.put(
    `${base}/:itemId`,
    {
      schema: {
        tags,
        operationId: 'updateTariffItem',
        summary: 'Update a tariff item',
        description: `Changes the item type, price or season sent (account_id may also come in the body). Another item of the tariff with the resulting type and season: 409. ${NEVER_APPLIES} ${ROLE_NEEDED.write} ${CHECKS}`,
        params: itemAddress,
        querystring: tariffAccount,
        body: withExample(updateItemBody, { account_id: EXAMPLE.accountId, price: 3.3015 }),
        response: {
          200: tariffItemResponses.item,
          ...failures({ 400: true, 403: true, 404: 'Tariff item not found', 409: DUPLICATE }),
        },
      },
    },
    async (req) => {
      const updated = await items.update(req.auth, req.params.id, req.params.itemId, req.query.account_id, req.body);
      return ok(updated.item, updated.message);
    },
  );
  app.delete(
    `${base}/:itemId`,
    {
      schema: {
        tags,
        operationId: 'deleteTariffItem',
        summary: 'Delete a tariff item',
        description: `Deletes the item with its tiers. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: itemAddress,
        querystring: tariffAccount,
        response: { 204: noContent, ...failures({ 400: true, 403: true, 404: 'Tariff item not found' }) },
      },
    },
    async (req, reply) => {
      await items.remove(req.auth, req.params.id, req.params.itemId, req.query.account_id);
      return reply.code(204).send();
    },
  );
}
