import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import { failures, noContent } from '../../http/responses.ts';
import { LIST_PARAMETERS, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { buildingBlockResponses } from './building-blocks.responses.ts';
import {
  createBuildingBlockBody,
  listBuildingBlocksQuery,
  updateBuildingBlockBody,
} from './building-blocks.schemas.ts';
import type { BuildingBlocksService } from './building-blocks.service.ts';

const tags = ['Building blocks'];
const base = '/api/v1/building_blocks';
const blockParams = withParamExamples(idParams, { id: 1 });
const blockAccount = withParamExamples(accountQuery, { account_id: EXAMPLE.accountId });
const NOT_FOUND = 'Building block not found';
const CHECKS = recordChecks('building block');

export function registerBuildingBlockRoutes(app: App, blocks: BuildingBlocksService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listBuildingBlocks',
        summary: 'List building blocks',
        description: `The organization's building blocks, filtered by parent_id (the children of a block) and building_type (or its other name, type). ${LIST_PARAMETERS} query searches name and description. ${ROLE_NEEDED.read}`,
        querystring: withParamExamples(listBuildingBlocksQuery, { account_id: EXAMPLE.accountId }),
        response: { 200: buildingBlockResponses.list, ...failures({ 400: true, 403: true }) },
      },
    },
    async (req) => okList(await blocks.list(req.auth, req.query)),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createBuildingBlock',
        summary: 'Create a building block',
        description: `Creates a site, building or unit; parent_id (a block of the same organization) places it in the tree. A missing required field (name, building_type, address, city, state, postal_code, country) or an unknown parent answers 400 in the database-error form: message null, error a JSON text with the database's message and code. ${ROLE_NEEDED.write}`,
        body: withExample(createBuildingBlockBody, {
          account_id: EXAMPLE.accountId,
          name: 'East Building',
          building_type: 'COMMERCIAL',
          address: '12 Dock Road',
          city: 'Cape Town',
          state: 'Western Cape',
          postal_code: 8001,
          country: 'South Africa',
          parent_id: 1,
          area: 2400,
        }),
        response: {
          201: buildingBlockResponses.created,
          ...failures({
            400: {
              message: null,
              error:
                '{"message":"null value in column \\"city\\" of relation \\"building_blocks\\" violates not-null constraint","code":"23502"}',
            },
            403: true,
          }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await blocks.create(req.auth, req.body))),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'getBuildingBlock',
        summary: 'Get a building block',
        description: `${ROLE_NEEDED.read} ${CHECKS}`,
        params: blockParams,
        querystring: blockAccount,
        response: { 200: buildingBlockResponses.block, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => ok(await blocks.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateBuildingBlock',
        summary: 'Update a building block',
        description: `Changes the fields sent; type is another name for building_type. A parent_id that is not a block of the organization, or that would make the block its own ancestor: 400. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: blockParams,
        body: withExample(updateBuildingBlockBody, {
          account_id: EXAMPLE.accountId,
          description: 'Demo site with two buildings and a car park',
        }),
        response: {
          200: buildingBlockResponses.block,
          ...failures({
            400: 'parent_id: A building block cannot be its own parent or the parent of its ancestors',
            403: true,
            404: NOT_FOUND,
          }),
        },
      },
    },
    async (req) => ok(await blocks.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteBuildingBlock',
        summary: 'Delete a building block',
        description: `Deletes the block with its dashboard config. A block that has child blocks or meters: 409. ${ROLE_NEEDED.write} ${CHECKS}`,
        params: blockParams,
        querystring: blockAccount,
        response: {
          204: noContent,
          ...failures({ 400: true, 403: true, 404: NOT_FOUND, 409: 'The building block has child blocks or meters' }),
        },
      },
    },
    async (req, reply) => {
      await blocks.remove(req.auth, req.query.account_id, req.params.id);
      return reply.code(204).send();
    },
  );
}
