import { ok, okAll } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { failures, noContent } from '../../http/responses.ts';
import { OPTIONAL_ACCOUNT, ROLE_NEEDED, TARIFF_CHECKS } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { blockParams, optionalAccountQuery, tierSet, updateBlockBody } from './tariff-blocks.schemas.ts';
import type { BlockAddress, TariffBlocksService } from './tariff-blocks.service.ts';
import { tariffBlockResponses } from './tariff-items.responses.ts';
import { itemParams } from './tariff-items.schemas.ts';

const tags = ['Tariff item blocks'];
const base = '/api/v1/tariffs/:id/items/:itemId/blocks';
const tariffAccount = withParamExamples(optionalAccountQuery, { account_id: EXAMPLE.accountId });
const itemAddress = withParamExamples(itemParams, { id: 1001, itemId: 100004 });
const blockAddress = withParamExamples(blockParams, { id: 1001, itemId: 100004, blockId: 1 });
const CHECKS = `${OPTIONAL_ACCOUNT} ${TARIFF_CHECKS} An unknown item of the tariff: 404.`;
const TIER_RULES =
  'Tiers: block_index from 0, upper_limit (kWh per month) strictly increasing with block_index and null only on the last tier, unit_price_cents 0 to 100,000,000 with at most 4 decimals.';

const address = (params: { id: number; itemId: number }, query: { account_id?: string | undefined }): BlockAddress => ({
  tariffId: params.id,
  itemId: params.itemId,
  accountId: query.account_id,
});

export function registerTariffBlockRoutes(app: App, blocks: TariffBlocksService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listTariffItemBlocks',
        summary: "List an item's tiers",
        description: `The tiers of a tariff item, by block_index. Unpaginated. ${ROLE_NEEDED.read} ${CHECKS}`,
        params: itemAddress,
        querystring: tariffAccount,
        response: {
          200: tariffBlockResponses.list,
          ...failures({ 400: true, 403: true, 404: 'Tariff item not found' }),
        },
      },
    },
    async (req) => okAll(await blocks.list(req.auth, address(req.params, req.query))),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'replaceTariffItemBlocks',
        summary: "Replace an item's tiers",
        description: `Replaces the item's whole tier set with the array sent (an empty array removes every tier), all at once. ${TIER_RULES} A set that breaks these rules: 400 naming the tier. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: itemAddress,
        querystring: tariffAccount,
        body: withExample(tierSet, [
          { block_index: 0, upper_limit: 600, unit_price_cents: 232.31 },
          { block_index: 1, upper_limit: null, unit_price_cents: 287.05 },
        ]),
        response: {
          201: tariffBlockResponses.replaced,
          ...failures({
            400: '1.upper_limit: Must increase strictly with block_index',
            403: true,
            404: 'Tariff item not found',
          }),
        },
      },
    },
    async (req, reply) =>
      reply.code(201).send(ok(await blocks.replace(req.auth, address(req.params, req.query), req.body))),
  );
  app.put(
    `${base}/:blockId`,
    {
      schema: {
        tags,
        operationId: 'updateTariffItemBlock',
        summary: 'Update a tier',
        description: `Changes the fields sent of one tier; the item's tiers must still follow the rules. ${TIER_RULES} Another tier with the block_index sent: 409. ${ROLE_NEEDED.write} ${CHECKS} An unknown tier: 404.`,
        params: blockAddress,
        querystring: tariffAccount,
        body: withExample(updateBlockBody, { unit_price_cents: 240.5 }),
        response: {
          200: tariffBlockResponses.block,
          ...failures({
            400: true,
            403: true,
            404: 'Tariff block not found',
            409: 'The item already has a block with block_index 1',
          }),
        },
      },
    },
    async (req) => ok(await blocks.update(req.auth, address(req.params, req.query), req.params.blockId, req.body)),
  );
  app.delete(
    `${base}/:blockId`,
    {
      schema: {
        tags,
        operationId: 'deleteTariffItemBlock',
        summary: 'Delete a tier',
        description: `Deletes one tier; the tiers left must still follow the rules. ${ROLE_NEEDED.write} ${CHECKS} An unknown tier: 404.`,
        params: blockAddress,
        querystring: tariffAccount,
        response: {
          204: noContent,
          ...failures({ 400: 'Only the last tier may have no upper_limit', 403: true, 404: 'Tariff block not found' }),
        },
      },
    },
    async (req, reply) => {
      await blocks.remove(req.auth, address(req.params, req.query), req.params.blockId);
      return reply.code(204).send();
    },
  );
}
