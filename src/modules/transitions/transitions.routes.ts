import { ok } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { failures, noContent } from '../../http/responses.ts';
import { ROLE_NEEDED, TARIFF_CHECKS } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { transitionResponses } from './transitions.responses.ts';
import { accountQuery, createTransitionBody, tariffIdParams, updateTransitionBody } from './transitions.schemas.ts';
import type { TransitionsService } from './transitions.service.ts';

const tags = ['Tariff transitions'];
const path = '/api/v1/tariffs/:id/transitions';
const predecessor = withParamExamples(tariffIdParams, { id: 1001 });
const tariffAccount = withParamExamples(accountQuery, { account_id: EXAMPLE.accountId });
const APPLYING =
  'When effective_from is not in the future the transition is applied at once: every meter and every dashboard-config tariff field of the organization naming the predecessor switches to the successor (application reports the counts); otherwise the service applies it when it falls due.';
const SUCCESSOR_RULES =
  'The successor must be another live tariff of the organization, and the chain of transitions must not lead back to the predecessor (400).';
const NO_TRANSITION = 'Transition not found';

export function registerTransitionRoutes(app: App, transitions: TransitionsService): void {
  app.get(
    path,
    {
      schema: {
        tags,
        operationId: 'getTariffTransition',
        summary: "Get a tariff's transition",
        description: `The successor transition of the tariff in the path (its predecessor). ${ROLE_NEEDED.read} ${TARIFF_CHECKS} A tariff without a transition: 404.`,
        params: predecessor,
        querystring: tariffAccount,
        response: { 200: transitionResponses.transition, ...failures({ 400: true, 403: true, 404: NO_TRANSITION }) },
      },
    },
    async (req) => ok(await transitions.get(req.auth, req.params.id, req.query.account_id)),
  );
  app.post(
    path,
    {
      schema: {
        tags,
        operationId: 'createTariffTransition',
        summary: 'Create a transition',
        description: `Names the successor of the tariff in the path from effective_from on; a tariff has at most one (409). ${SUCCESSOR_RULES} ${APPLYING} ${ROLE_NEEDED.write} ${TARIFF_CHECKS}`,
        params: predecessor,
        body: withExample(createTransitionBody, {
          account_id: EXAMPLE.accountId,
          successor_id: 1002,
          effective_from: '2027-03-31T22:00:00Z',
          notes: "Next year's prices from 1 April",
        }),
        response: {
          201: transitionResponses.created,
          ...failures({
            400: 'successor_id: A tariff cannot be its own successor',
            403: true,
            404: 'Tariff not found',
            409: 'The tariff already has a successor transition',
          }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await transitions.create(req.auth, req.params.id, req.body))),
  );
  app.put(
    path,
    {
      schema: {
        tags,
        operationId: 'updateTariffTransition',
        summary: 'Update a transition',
        description: `Changes the successor, effective_from or notes of a transition not yet applied (an applied one: 409). ${SUCCESSOR_RULES} ${APPLYING} ${ROLE_NEEDED.write} ${TARIFF_CHECKS} A tariff without a transition: 404.`,
        params: predecessor,
        body: withExample(updateTransitionBody, {
          account_id: EXAMPLE.accountId,
          notes: "Next year's prices, as published in March",
        }),
        response: {
          200: transitionResponses.updated,
          ...failures({
            400: 'successor_id: The transition would form a cycle back to the predecessor',
            403: true,
            404: NO_TRANSITION,
            409: 'The transition has already been applied',
          }),
        },
      },
    },
    async (req) => ok(await transitions.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    path,
    {
      schema: {
        tags,
        operationId: 'deleteTariffTransition',
        summary: 'Delete a transition',
        description: `Removes the tariff's transition (an applied one too; what it switched stays). ${ROLE_NEEDED.write} ${TARIFF_CHECKS} A tariff without a transition: 404.`,
        params: predecessor,
        querystring: tariffAccount,
        response: { 204: noContent, ...failures({ 400: true, 403: true, 404: NO_TRANSITION }) },
      },
    },
    async (req, reply) => {
      await transitions.remove(req.auth, req.params.id, req.query.account_id);
      return reply.code(204).send();
    },
  );
}
