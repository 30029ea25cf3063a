import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { failures } from '../../http/responses.ts';
import { LIST_PARAMETERS, ROLE_NEEDED } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { catalogueResponses } from './catalogue.responses.ts';
import { catalogueIdParams, catalogueListQuery, cloneBody } from './catalogue.schemas.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { OVERLAPPING_VERSIONS } from './tariff-rules.ts';

const tags = ['Tariff catalogue'];
// Static segments win over /api/v1/tariffs/:id in Fastify's router, whatever the registration order.
const base = '/api/v1/tariffs/catalogue';
const catalogueParams = withParamExamples(catalogueIdParams, { id: 6 });
const NOT_FOUND = 'Catalogue tariff not found';

export function registerCatalogueRoutes(app: App, catalogue: CatalogueService): void {
  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listCatalogueTariffs',
        summary: 'List catalogue tariffs',
        description: `Published tariffs, readable by every signed-in user (no account_id), filtered by meter_type, tariff_type, dso_id and effective_from range. ${LIST_PARAMETERS} query is fuzzy (trigram similarity) on name and description.`,
        querystring: catalogueListQuery,
        response: { 200: catalogueResponses.list, ...failures({ 400: true }) },
      },
    },
    async (req) => okList(await catalogue.list(req.query)),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'getCatalogueTariff',
        summary: 'Get a catalogue tariff',
        description:
          'A catalogue tariff with its items (each with its tiers) and its DSO; readable by every signed-in user.',
        params: catalogueParams,
        response: { 200: catalogueResponses.tariff, ...failures({ 400: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => ok(await catalogue.get(req.params.id)),
  );
  app.post(
    `${base}/:id/clone`,
    {
      schema: {
        tags,
        operationId: 'cloneCatalogueTariff',
        summary: 'Clone a catalogue tariff',
        description: `Copies a catalogue tariff with its items and tiers into the organization account_id, all at once, as a tariff of its own (name defaults to the source's). Catalogue tariffs themselves are read-only. The copy keeps the source's family (its eligibility fields too) unless the body names another or null: a second copy of one version in one family overlaps the first (409). ${ROLE_NEEDED.write} Refusals in this order: 403 for the organization, then 404 for an unknown catalogue tariff.`,
        params: catalogueParams,
        body: withExample(cloneBody, {
          account_id: EXAMPLE.accountId,
          name: 'Homeflex for the North Building',
          family: 'north-building-homeflex',
        }),
        response: {
          201: catalogueResponses.clone,
          ...failures({ 400: true, 403: true, 404: NOT_FOUND, 409: OVERLAPPING_VERSIONS }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await catalogue.clone(req.auth, req.params.id, req.body))),
  );
}
