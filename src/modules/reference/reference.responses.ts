import { z } from 'zod';
import { integer, isoDate, listEnvelope, okEnvelope } from '../../http/responses.ts';
import { ITEM_TYPE_CODES, SEASONS, TOU_DAY_TYPES, TOU_PERIODS } from './vocabulary.ts';

const ESKOM = { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' };

export const dsoRecord = z
  .strictObject({ id: integer, name: z.string(), tz: z.string().describe('IANA time zone') })
  .meta({ examples: [ESKOM] });

const itemType = z
  .strictObject({
    code: z.enum(ITEM_TYPE_CODES),
    displayName: z.string(),
    unit: z.string().describe('Unit of its price: kWh, kvarh, kVA, day, month, ...'),
  })
  .meta({ examples: [{ code: 'ADMINISTRATION', displayName: 'Administration charge', unit: 'day' }] });

/** The weekday morning peak of Eskom's high-demand season, 06:00 to 08:00. */
const MORNING_PEAK = { day_type: 'WEEKDAY', period: 'PEAK', start_minute: 360, end_minute: 480 };

const rule = z.strictObject({
  id: integer,
  schedule_id: integer,
  season_id: integer,
  day_type: z.enum(TOU_DAY_TYPES),
  period: z.enum(TOU_PERIODS),
  start_minute: integer.describe('Minutes from midnight, inclusive'),
  end_minute: integer.describe('Minutes from midnight, exclusive (up to 1440)'),
});

const season = z.strictObject({
  id: integer,
  dso_id: integer,
  label: z.enum(SEASONS),
  date_start: isoDate.describe('Recurs every year: only the month and day count'),
  date_end: isoDate,
  tou_rules: z.array(rule).describe("The schedule's rules in this season, by day type and start"),
});

export const scheduleRecord = z
  .strictObject({
    id: integer,
    dso_id: integer,
    name: z.string(),
    version: integer,
    tz: z.string(),
    is_active: z.boolean(),
    holiday_default: z.enum(TOU_DAY_TYPES).describe('Day type of public holidays without their own'),
    dso: dsoRecord.nullable(),
    seasons: z.array(season),
  })
  .meta({
    examples: [
      {
        id: 3,
        dso_id: 1,
        name: 'Eskom Megaflex/Miniflex/Homeflex TOU',
        version: 2,
        tz: 'Africa/Johannesburg',
        is_active: true,
        holiday_default: 'SATURDAY',
        dso: ESKOM,
        seasons: [
          {
            id: 1,
            dso_id: 1,
            label: 'WINTER',
            date_start: '2025-06-01',
            date_end: '2025-08-31',
            tou_rules: [{ id: 302, schedule_id: 3, season_id: 1, ...MORNING_PEAK }],
          },
        ],
      },
    ],
  });

export const referenceResponses = {
  itemTypes: listEnvelope(itemType, 'Every tariff item type, by code', 23),
  dsos: listEnvelope(dsoRecord, 'Every DSO', 3),
  schedules: listEnvelope(scheduleRecord, 'The time-of-use schedules', 1),
  schedule: okEnvelope(scheduleRecord, 'The time-of-use schedule with its DSO, seasons and rules'),
};
