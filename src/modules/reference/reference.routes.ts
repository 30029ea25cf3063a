import { ok, okAll } from '../../http/envelope.ts';
import { withParamExamples } from '../../http/examples.ts';
import { failures } from '../../http/responses.ts';
import type { App } from '../../http/types.ts';
import { referenceResponses } from './reference.responses.ts';
import { scheduleIdParams, scheduleListQuery } from './reference.schemas.ts';
import type { ReferenceService } from './reference.service.ts';

const tags = ['Reference data'];
const READ_BY_ALL = 'Read-only reference data, the same for every signed-in user; unpaginated.';

export function registerReferenceRoutes(app: App, reference: ReferenceService): void {
  app.get(
    '/api/v1/tariff_item_types',
    {
      schema: {
        tags,
        operationId: 'listTariffItemTypes',
        summary: 'List tariff item types',
        description: `The 23 kinds of tariff item with their display name and the unit of their price. ${READ_BY_ALL}`,
        response: { 200: referenceResponses.itemTypes, ...failures({}) },
      },
    },
    async () => okAll(await reference.itemTypes()),
  );
  app.get(
    '/api/v1/dsos',
    {
      schema: {
        tags,
        operationId: 'listDsos',
        summary: 'List DSOs',
        description: `The energy providers (distribution system operators) a tariff may name as dso_id. ${READ_BY_ALL}`,
        response: { 200: referenceResponses.dsos, ...failures({}) },
      },
    },
    async () => okAll(await reference.dsos()),
  );
  app.get(
    '/api/v1/tou_schedules',
    {
      schema: {
        tags,
        operationId: 'listTouSchedules',
        summary: 'List time-of-use schedules',
        description: `Every time-of-use schedule (or those of one DSO), each with its DSO, seasons and rules. ${READ_BY_ALL}`,
        querystring: withParamExamples(scheduleListQuery, { dso_id: 1 }),
        response: { 200: referenceResponses.schedules, ...failures({ 400: true }) },
      },
    },
    async (req) => okAll(await reference.schedules(req.query.dso_id)),
  );
  app.get(
    '/api/v1/tou_schedules/:id',
    {
      schema: {
        tags,
        operationId: 'getTouSchedule',
        summary: 'Get a time-of-use schedule',
        description: `One schedule with its DSO and seasons, each season with its rules (periods of each day type, minutes from midnight). ${READ_BY_ALL}`,
        params: withParamExamples(scheduleIdParams, { id: 3 }),
        response: {
          200: referenceResponses.schedule,
          ...failures({ 400: true, 404: 'Time-of-use schedule not found' }),
        },
      },
    },
    async (req) => ok(await reference.schedule(req.params.id)),
  );
}
