// Charts: a uPlot time series (drag across it to zoom, double-click to reset) and an SVG sparkline per row.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { sparklinePoints } from '../format.ts';

interface SeriesPoint {
  timestamp: string;
  value: number;
}

/** Width for a value axis: its longest tick label, plus the tick and the gap before the label (CSS px). */
function valueAxisSize(_plot: uPlot, values: string[] | null): number {
  const longest = Math.max(0, ...(values ?? []).map((v) => String(v).length));
  return Math.max(50, longest * 8 + 20);
}

export function TimeChart({
  points,
  label,
  quota,
}: {
  points: SeriesPoint[];
  label: string;
  /** A flat second line (e.g. the daily quota) drawn for comparison. */
  quota?: { label: string; value: number } | null;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = points.map((p) => Date.parse(p.timestamp) / 1000);
    const data: uPlot.AlignedData = quota
      ? [xs, points.map((p) => p.value), points.map(() => quota.value)]
      : [xs, points.map((p) => p.value)];
    const series: uPlot.Series[] = [{}, { label, stroke: '#1d4ed8', width: 2, fill: 'rgba(29,78,216,0.08)' }];
    if (quota) series.push({ label: quota.label, stroke: '#b91c1c', width: 1, dash: [6, 4] });
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        series,
        cursor: { drag: { x: true, y: false } },
        scales: { x: { time: true } },
        // The value axis as wide as its longest label ("25,000"): uPlot's fixed 50 px cut the first digits off.
        axes: [{}, { size: valueAxisSize }],
      },
      data,
      el,
    );
    const resize = () => plot.setSize({ width: width(), height: 260 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [points, label, quota]);
  return (
    <figure class="chart">
      <div ref={box} data-points={points.length} />
      <figcaption>
        {label}: {points.length} points. Drag across the chart to zoom in; double-click to zoom out.
      </figcaption>
    </figure>
  );
}

export function Sparkline({ values, label }: { values: number[] | undefined; label: string }) {
  if (!values) return <span class="spark-empty">…</span>;
  return (
    <svg class="spark" viewBox="0 0 100 24" width="100" height="24" role="img" aria-label={label}>
      <polyline points={sparklinePoints(values, 100, 24)} />
    </svg>
  );
}
