import { type FormEvent, useId, useState } from 'react';
import { makeRange, type Range, type RangeKind, rangeAround, shiftRange } from '../lib/ranges.ts';
import { isoDate, parseIsoDate, today } from '../lib/time.ts';
import { DateInput } from './date-input.tsx';

const KINDS: { kind: RangeKind; label: string }[] = [
  { kind: 'day', label: 'Day' },
  { kind: 'last7', label: 'Last 7 days' },
  { kind: 'week', label: 'Week' },
  { kind: 'month', label: 'Month' },
  { kind: 'custom', label: 'Custom' },
];

const dateText = (range: Range) =>
  range.kind === 'day' || isoDate(range.from) === isoDate(range.to)
    ? isoDate(range.from)
    : `${isoDate(range.from)} to ${isoDate(range.to)}`;

/** Day, last 7 days, week, month or custom days; the period before and after; the period shown, in words. */
export function RangePicker({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const id = useId();
  const [custom, setCustom] = useState(range.kind === 'custom');
  const [from, setFrom] = useState(isoDate(range.from));
  const [to, setTo] = useState(isoDate(range.to));
  const [invalid, setInvalid] = useState<string | null>(null);

  const choose = (kind: RangeKind) => {
    setCustom(kind === 'custom');
    if (kind !== 'custom') onChange(rangeAround(kind, range.kind === 'custom' ? range.to : range.from, range.tz));
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const first = parseIsoDate(from);
    const last = parseIsoDate(to);
    if (!first || !last || isoDate(first) > isoDate(last)) {
      setInvalid('Choose a first day on or before the last day.');
      return;
    }
    setInvalid(null);
    onChange(makeRange('custom', first, last, range.tz));
  };

  return (
    <div className="range-picker">
      <fieldset className="segmented" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="visually-hidden">Period</legend>
        {KINDS.map(({ kind, label }) => (
          <button
            key={kind}
            type="button"
            aria-pressed={custom ? kind === 'custom' : range.kind === kind}
            onClick={() => choose(kind)}
          >
            {label}
          </button>
        ))}
      </fieldset>
      {!custom && (
        <div className="row" style={{ alignItems: 'center' }}>
          <button
            type="button"
            className="secondary"
            aria-label="Previous period"
            onClick={() => onChange(shiftRange(range, -1))}
          >
            ‹
          </button>
          <span aria-live="polite" data-range-start={range.start} data-range-end={range.end}>
            {dateText(range)}
          </span>
          <button
            type="button"
            className="secondary"
            aria-label="Next period"
            onClick={() => onChange(shiftRange(range, 1))}
          >
            ›
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => onChange(rangeAround(range.kind, today(range.tz), range.tz))}
          >
            Today
          </button>
        </div>
      )}
      {custom && (
        <form className="row" onSubmit={apply}>
          <DateInput id={`${id}-from`} label="First day" value={from} onChange={setFrom} />
          <DateInput id={`${id}-to`} label="Last day" value={to} onChange={setTo} />
          <button type="submit">Show</button>
          {invalid && (
            <p className="error" role="alert">
              {invalid}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
