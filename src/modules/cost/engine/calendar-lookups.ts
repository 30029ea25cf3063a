import { createDayDescriber, type DescribeDay } from './calendar.ts';
import { createPeriodLookup, type LookupPeriods } from './tou.ts';
import type { PricingCalendar } from './types.ts';

export interface CalendarLookups {
  describeDay: DescribeDay;
  lookupPeriods: LookupPeriods;
}

/** Gone with their calendar: the calendar of a cached tariff is one object shared by every bill priced with it. */
const lookups = new WeakMap<PricingCalendar, CalendarLookups>();

/** The day describer and the period lookup of a calendar, made once per calendar object, so that its days are worked out once. */
export function calendarLookups(calendar: PricingCalendar): CalendarLookups {
  let found = lookups.get(calendar);
  if (!found) {
    found = { describeDay: createDayDescriber(calendar), lookupPeriods: createPeriodLookup(calendar.schedule) };
    lookups.set(calendar, found);
  }
  return found;
}
