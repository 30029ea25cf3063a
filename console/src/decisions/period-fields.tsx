import { useId } from 'react';
import { type BillSource, type BuildingBlock, ENERGY_SOURCES } from '../api/models.ts';
import { DateInput } from '../components/date-input.tsx';
import { SOURCE_LABELS } from '../lib/labels.ts';
import { makeRange, readingsEnd } from '../lib/ranges.ts';
import { addMonths, isoDate, parseIsoDate, today } from '../lib/time.ts';

/** What a decision page asks first: a building block, perhaps a source, and a period of days. */
export interface DecisionChoice {
  blockId: string;
  source: BillSource;
  from: string;
  to: string;
}

/** The default: the block given, the grid, from the first day of the month two months back to today. */
export function defaultChoice(blockId: number | undefined, tz: string): DecisionChoice {
  const day = today(tz);
  return {
    blockId: blockId === undefined ? '' : String(blockId),
    source: 'grid',
    from: isoDate(addMonths({ ...day, day: 1 }, -2)),
    to: isoDate(day),
  };
}

/**
 * The instants of a choice's days in a zone, ending at the start of the current hour when the
 * last day is today (as the bills end); null with the reason when the days are not a period.
 */
export function periodOf(
  choice: Pick<DecisionChoice, 'from' | 'to'>,
  tz: string,
): { start: string; end: string } | string {
  const from = parseIsoDate(choice.from);
  const to = parseIsoDate(choice.to);
  if (!from || !to) return 'Write both days as YYYY-MM-DD.';
  if (isoDate(from) > isoDate(to)) return 'Choose a first day on or before the last day.';
  const range = makeRange('custom', from, to, tz);
  const end = readingsEnd(range);
  if (end <= range.start) return 'The period has not started yet: choose days up to today.';
  return { start: range.start, end };
}

/** The building, source and days of a decision, as form fields. */
export function DecisionFields({
  blocks,
  choice,
  onChange,
  withSource = false,
}: {
  blocks: BuildingBlock[];
  choice: DecisionChoice;
  onChange: (choice: DecisionChoice) => void;
  /** Ask for the source: an energy source, or with 'and water' the water supply too. */
  withSource?: boolean | 'and water';
}) {
  const id = useId();
  const set = (change: Partial<DecisionChoice>) => onChange({ ...choice, ...change });
  return (
    <div className="row">
      <div>
        <label htmlFor={`${id}-block`}>Building</label>
        <select id={`${id}-block`} value={choice.blockId} onChange={(e) => set({ blockId: e.target.value })} required>
          <option value="">Choose a building…</option>
          {blocks.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
      </div>
      {withSource && (
        <div>
          <label htmlFor={`${id}-source`}>Energy source</label>
          <select
            id={`${id}-source`}
            value={choice.source}
            onChange={(e) => set({ source: e.target.value as BillSource })}
          >
            {[...ENERGY_SOURCES, ...(withSource === 'and water' ? (['water'] as const) : [])].map((value) => (
              <option key={value} value={value}>
                {SOURCE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      )}
      <DateInput id={`${id}-from`} label="First day" value={choice.from} onChange={(from) => set({ from })} />
      <DateInput id={`${id}-to`} label="Last day" value={choice.to} onChange={(to) => set({ to })} />
    </div>
  );
}

/** Why the days chosen are not a period, when they are not. */
export function InvalidChoice({ reason }: { reason: string | null }) {
  return (
    reason && (
      <p className="error" role="alert">
        {reason}
      </p>
    )
  );
}
