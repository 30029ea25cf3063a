const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

const padded = (count: number, width: number) =>
  Array.from({ length: count }, (_, n) => String(n).padStart(width, '0'));
const TWO_DIGITS = padded(60, 2);
const THREE_DIGITS = padded(1000, 3);
/**
 * Each whole minute of a day, `HH:MM:00.000Z`, as one string: buckets start on whole minutes, and
 * a time of one piece makes a profile's JSON of fewer pieces to join.
 */
const WHOLE_MINUTES = Array.from(
  { length: 1440 },
  (_, minute) => `${TWO_DIGITS[Math.floor(minute / 60)]}:${TWO_DIGITS[minute % 60]}:00.000Z`,
);

/**
 * A writer of instants (ms) as Date.prototype.toISOString writes them, for many instants in a row:
 * the date is written by Date once per UTC day and reused, the time of day is put together from
 * its fields (a profile names thousands of buckets, most of them on the day of the one before).
 */
export function isoWriter(): (time: number) => string {
  let day = Number.NaN;
  let date = '';
  return (time) => {
    const dayOfTime = Math.floor(time / DAY_MS);
    if (dayOfTime !== day) {
      const iso = new Date(time).toISOString();
      day = dayOfTime;
      date = iso.slice(0, iso.indexOf('T') + 1);
    }
    const ms = time - day * DAY_MS;
    if (ms % MINUTE_MS === 0) return date + WHOLE_MINUTES[ms / MINUTE_MS];
    return `${date}${TWO_DIGITS[Math.floor(ms / HOUR_MS)]}:${TWO_DIGITS[Math.floor(ms / MINUTE_MS) % 60]}:${
      TWO_DIGITS[Math.floor(ms / SECOND_MS) % 60]
    }.${THREE_DIGITS[ms % SECOND_MS]}Z`;
  };
}
