import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dateTimeFormatOf, formatAxisNumber } from '../lib/format.ts';

export interface ChartSeries {
  label: string;
  /** A solid colour, distinct from the other series'. */
  color: string;
  /** A line's dash pattern (steps), so that lines that cross tell apart without colour too. */
  dash?: number[];
}

interface ChartProps {
  /** What the chart shows, for screen readers (the data is also in a table beside it). */
  description: string;
  /**
   * Bucket starts in seconds, then one array of values per series (null: no value). Steps: the
   * last x closes the last bucket, so x has one more entry than each series.
   */
  data: [number[], ...(number | null)[][]];
  series: ChartSeries[];
  /** Steps: each value held over its whole bucket; bars: one bar per bucket. */
  kind: 'steps' | 'bars';
  tz: string;
  /** The x range shown, in seconds: the whole period, also where there is no data. */
  xRange: [number, number];
  yLabel: string;
  /** Where the x axis has its labels, and how they read (default: uPlot's dates). */
  xTicks?: { at: number[]; label: (seconds: number) => string };
  /** Called each time the chart has drawn its data. */
  onDrawn?: () => void;
  height?: number;
}

const DEFAULT_HEIGHT = 260;
const DAY_S = 86_400;
/** The room one label of a time axis takes, in CSS pixels. */
const LABEL_PX = 72;

/** A time axis's labels in the console's locale: hours of a 24-hour clock (the date at midnight), days, or months. */
function timeLabels(tz: string) {
  const hours = dateTimeFormatOf(tz, { hour: '2-digit', minute: '2-digit' });
  const days = dateTimeFormatOf(tz, { day: 'numeric', month: 'short' });
  const months = dateTimeFormatOf(tz, { month: 'short', year: 'numeric' });
  return (_u: uPlot, splits: number[], _axis: number, _space: number, increment: number) =>
    splits.map((seconds) => {
      const at = seconds * 1000;
      if (increment >= 28 * DAY_S) return months.format(at);
      if (increment >= DAY_S) return days.format(at);
      const time = hours.format(at);
      return time === '00:00' ? `${time}\n${days.format(at)}` : time;
    });
}

/**
 * Steps as two points per bucket, its start and a second before its end, each with the bucket's
 * value: a bucket followed by one without data (the latest hour, a gap) keeps its width.
 */
export function heldSteps([x, ...columns]: [number[], ...(number | null)[][]]): [number[], ...(number | null)[][]] {
  const buckets = x.slice(0, -1);
  return [
    buckets.flatMap((start, i) => [start, x[i + 1]! - 1]),
    ...columns.map((values) => buckets.flatMap((_, i) => [values[i] ?? null, values[i] ?? null])),
  ];
}

/** A legend's time: "Tue 24 Nov, 14:30" in the zone. */
function legendTime(tz: string) {
  const format = dateTimeFormatOf(tz, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (seconds: number) => format.format(seconds * 1000);
}

/** Every n-th of the given ticks, so that their labels do not overlap at the plot's width. */
function spacedTicks(at: number[], plotWidthPx: number): number[] {
  const every = Math.max(1, Math.ceil((at.length * LABEL_PX) / Math.max(plotWidthPx, 1)));
  return at.filter((_, i) => i % every === 0);
}

/** A uPlot chart that fills its container's width and redraws when it changes size. */
export function Chart({
  description,
  data,
  series,
  kind,
  tz,
  xRange,
  yLabel,
  xTicks,
  onDrawn,
  height = DEFAULT_HEIGHT,
}: ChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const paths =
      kind === 'bars' ? uPlot.paths.bars!({ size: [0.6, 80], align: 1 }) : uPlot.paths.stepped!({ align: 1 });
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), tz),
      scales: {
        x: { time: true, range: () => xRange },
        // Bars start at zero, or their lengths would not compare.
        ...(kind === 'bars' ? { y: { range: (_u, min, max) => [Math.min(0, min), Math.max(0, max) * 1.1] } } : {}),
      },
      axes: [
        xTicks
          ? {
              splits: (u) => spacedTicks(xTicks.at, u.bbox.width / uPlot.pxRatio),
              values: (_u, splits) => splits.map(xTicks.label),
              space: 40,
            }
          : { space: LABEL_PX, values: timeLabels(tz) },
        { label: yLabel, size: 64, values: (_u, splits) => splits.map(formatAxisNumber) },
      ],
      cursor: { points: { show: false } },
      series: [
        // The legend's time: the hovered bucket's label, or its local date and time on a 24-hour
        // clock; while no bucket is hovered, nothing (styles.css hides the empty time).
        {
          value: (_u, seconds, _series, index) => {
            if (seconds === null) return '';
            // A step's second point is a second before its bucket's end: name the bucket by its start.
            const start = kind === 'steps' && index !== null ? data[0][Math.floor(index / 2)]! : seconds;
            return (xTicks?.label ?? legendTime(tz))(start);
          },
        },
        // Solid colours: bars filled, steps as lines (dashed where asked), never see-through areas.
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          ...(kind === 'bars' ? { fill: s.color, width: 0 } : { width: 2, dash: s.dash }),
          paths,
          points: { show: false },
        })),
      ],
      hooks: {
        draw: [
          () => {
            element.dataset.drawn = 'true';
            drawn.current?.();
          },
        ],
      },
    };
    const plot = new uPlot(options, (kind === 'steps' ? heldSteps(data) : data) as uPlot.AlignedData, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      delete element.dataset.drawn;
    };
  }, [data, series, kind, tz, xRange, yLabel, xTicks, height]);

  return <div ref={container} className="chart" role="img" aria-label={description} />;
}
