/**
 * The Overview's charts, drawn by uPlot (canvas, about 22 kB gzip). This module is imported lazily
 * by the Overview page: the other pages never download it. Each chart's container is hidden from
 * assistive technology; its figures are in the table beside it. Legends are the page's own HTML
 * (uPlot's is off), so they follow the theme and need no inline style.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { OVERVIEW_OUTCOMES, type OverviewResponse } from '@service/contract';

export interface ChartColours {
  approved: string;
  review: string;
  rejected: string;
  failed: string;
  text: string;
  grid: string;
  font: string;
}

/** The page's theme, read from Web Awesome's custom properties. */
export function themeColours(el: Element): ChartColours {
  const s = getComputedStyle(el);
  const v = (name: string, fallback: string) => s.getPropertyValue(name).trim() || fallback;
  return {
    approved: v('--wa-color-success-fill-loud', '#16a34a'),
    review: v('--wa-color-warning-fill-loud', '#d97706'),
    rejected: v('--wa-color-danger-fill-loud', '#dc2626'),
    failed: v('--wa-color-neutral-fill-loud', '#6b7280'),
    text: v('--wa-color-text-quiet', '#4b5563'),
    grid: v('--wa-color-surface-border', '#e5e7eb'),
    font: `12px ${s.fontFamily || 'sans-serif'}`,
  };
}

const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** Every `step`-th category index, so labels do not overlap. */
const everyNth = (count: number, step: number) => Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);

function axis(c: ChartColours, extra: uPlot.Axis = {}): uPlot.Axis {
  return { stroke: c.text, font: c.font, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 }, ...extra };
}

/** Whole-number steps only: counts have no fractions, so neither do their grid lines. */
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];

const bars = (size = 0.7) => uPlot.paths.bars!({ size: [size, 64], align: 0 });
const maxOf = (xs: number[]) => Math.max(1, ...xs);

export interface OverviewCharts {
  destroy(): void;
}

/** Draws the charts into their containers (any missing container is skipped); they follow the containers' width. */
export function drawOverviewCharts(
  boxes: { perDay?: HTMLElement; shares?: HTMLElement; reasons?: HTMLElement },
  data: OverviewResponse,
  c: ChartColours,
  reasonLabel: (code: string) => string,
): OverviewCharts {
  const plots: { plot: uPlot; box: HTMLElement }[] = [];
  const base = { legend: { show: false }, cursor: { show: false }, select: { show: false, left: 0, top: 0, width: 0, height: 0 } };
  const add = (box: HTMLElement | undefined, make: (width: number, height: number) => uPlot) => {
    if (!box) return;
    box.replaceChildren();
    plots.push({ plot: make(Math.max(200, box.clientWidth), box.clientHeight || 240), box });
  };

  // Verifications per day by outcome: stacked bars, each outcome drawn from zero to its running
  // total, the tallest first, so each visible band is one outcome's count.
  add(boxes.perDay, (width, height) => {
    const days = data.perDay;
    const x = days.map((_, i) => i);
    const stacked: number[][] = [];
    let running = days.map(() => 0);
    for (const o of OVERVIEW_OUTCOMES) {
      running = running.map((r, i) => r + days[i]![o]);
      stacked.push(running);
    }
    const order = [...OVERVIEW_OUTCOMES.keys()].reverse();
    const step = Math.ceil(days.length / 10);
    return new uPlot(
      {
        ...base,
        width,
        height,
        scales: { x: { time: false, range: [-0.5, days.length - 0.5] }, y: { range: [0, maxOf(running) * 1.1] } },
        axes: [
          axis(c, {
            grid: { show: false },
            splits: () => everyNth(days.length, step),
            values: (_u, splits) => splits.map((i) => dayLabel(days[i]!.date)),
          }),
          axis(c, { size: 56, incrs: WHOLE }),
        ],
        series: [
          {},
          ...order.map((i) => ({
            label: OVERVIEW_OUTCOMES[i],
            fill: c[OVERVIEW_OUTCOMES[i]!],
            stroke: c[OVERVIEW_OUTCOMES[i]!],
            width: 0,
            paths: bars(),
            points: { show: false },
          })),
        ],
      },
      [x, ...order.map((i) => stacked[i]!)],
      boxes.perDay,
    );
  });

  // The period's shares: one bar per outcome, in percent.
  add(boxes.shares, (width, height) => {
    const total = data.totals.total;
    const pct = OVERVIEW_OUTCOMES.map((o) => (total ? (data.totals[o] / total) * 100 : 0));
    return new uPlot(
      {
        ...base,
        width,
        height,
        scales: { x: { time: false, range: [-0.5, 3.5] }, y: { range: [0, 100] } },
        axes: [
          axis(c, { grid: { show: false }, splits: () => [0, 1, 2, 3], values: () => ['Approved', 'Review', 'Rejected', 'Failed'] }),
          axis(c, { size: 56, splits: () => [0, 25, 50, 75, 100], values: (_u, splits) => splits.map((v) => `${v} %`) }),
        ],
        series: [
          {},
          ...OVERVIEW_OUTCOMES.map((o) => ({ label: o, fill: c[o], stroke: c[o], width: 0, paths: bars(0.6), points: { show: false } })),
        ],
      },
      [[0, 1, 2, 3], ...pct.map((p, i) => [0, 1, 2, 3].map((j) => (j === i ? p : null)))],
      boxes.shares,
    );
  });

  // The most frequent reasons: horizontal bars, the most frequent on top.
  add(boxes.reasons, (width, height) => {
    const top = data.topReasons;
    const labels = top.map((r) => reasonLabel(r.reason));
    const longest = Math.max(...labels.map((l) => l.length));
    return new uPlot(
      {
        ...base,
        width,
        height,
        scales: {
          x: { time: false, ori: 1, dir: 1, range: [-0.5, top.length - 0.5] },
          y: { ori: 0, range: [0, maxOf(top.map((r) => r.count)) * 1.1] },
        },
        axes: [
          axis(c, {
            side: 3,
            size: Math.min(200, 16 + longest * 7),
            grid: { show: false },
            splits: () => top.map((_, i) => i),
            values: () => labels,
          }),
          axis(c, { side: 2, incrs: WHOLE }),
        ],
        series: [{}, { label: 'verifications', fill: c.review, stroke: c.review, width: 0, paths: bars(0.6), points: { show: false } }],
      },
      [top.map((_, i) => i), top.map((r) => r.count)],
      boxes.reasons,
    );
  });

  const resize = new ResizeObserver(() => {
    for (const { plot, box } of plots) {
      const width = Math.max(200, box.clientWidth);
      if (width !== plot.width) plot.setSize({ width, height: plot.height });
    }
  });
  for (const { box } of plots) resize.observe(box);
  return {
    destroy: () => {
      resize.disconnect();
      for (const { plot } of plots) plot.destroy();
    },
  };
}
