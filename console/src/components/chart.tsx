import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
}

interface ChartProps {
  /** What the chart shows, for screen readers (the data is also in a table beside it). */
  description: string;
  /** Bucket starts in seconds, then one array of values per series (null: no value). */
  data: [number[], ...(number | null)[][]];
  series: ChartSeries[];
  /** Steps: each value held over its bucket (the last x closes the last bucket); bars: one bar per bucket. */
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
          ? { splits: () => xTicks.at, values: (_u, splits) => splits.map(xTicks.label), space: 40 }
          : { space: 60 },
        { label: yLabel, size: 64 },
      ],
      cursor: { points: { show: false } },
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          fill: `${s.color}${kind === 'bars' ? 'dd' : '40'}`,
          width: kind === 'bars' ? 0 : 1.5,
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
    const plot = new uPlot(options, data as uPlot.AlignedData, element);
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
