import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname } from 'node:path';

/**
 * A small, dependency-free SVG chart writer for the benches: a line chart (a measure against a size or a load)
 * and a grouped bar chart (a measure per kind, per contender). The benches write their charts with it next to
 * their printed tables (bench/charts/), and bench/README.md shows them: charts are regenerated, never drawn.
 */

export interface LineSeries {
  name: string;
  points: readonly (readonly [x: number, y: number])[];
}

export interface LineChart {
  title: string;
  /** A line under the title: where and when it was measured (`measuredUnder()`). */
  note?: string;
  xLabel: string;
  yLabel: string;
  series: readonly LineSeries[];
  /** A logarithmic x axis, for sizes that grow tenfold. */
  logX?: boolean;
}

export interface BarChart {
  title: string;
  note?: string;
  yLabel: string;
  /** The groups along the x axis (query kinds, say). */
  groups: readonly string[];
  /** One bar per group and series, in group order. */
  series: readonly { name: string; values: readonly number[] }[];
  /** The top of the y axis when the measure has one (1 for a ratio); else the largest value, rounded up. */
  yMax?: number;
}

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { top: 48, right: 150, bottom: 50, left: 64 };
const PLOT = { width: WIDTH - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom };
/** Colour-blind-safe (Okabe–Ito). */
/** What fits on one line under the title at 11 px. */
const NOTE_LINE_CHARS = 105;
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char]!);
const round = (value: number) => Math.round(value * 10) / 10;

/** Tick label of a value: short, without float noise. */
function tickLabel(value: number): string {
  if (Math.abs(value) >= 1000) return `${round(value / 1000)}k`;
  return String(Number(value.toPrecision(3)));
}

/** A "nice" upper bound (1, 2 or 5 times a power of ten) at or above `value`. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

/** The load when the bench started: this module is imported as it starts, before any of its work. */
const LOAD_AT_START = loadavg()[0]!;

/**
 * Where, how and under what load a bench measured (timings on a shared machine are noisy): shown under a chart's
 * title. The load is the one-minute average when the bench started and when it drew the chart.
 */
export function measuredUnder(runtime: string, configuration?: string): string {
  const load = `load ${LOAD_AT_START.toFixed(1)}–${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
  return [runtime, configuration, `${new Date().toISOString().slice(0, 10)}, ${load}`].filter(Boolean).join('; ');
}

/** A note's lines: split at its "; " where one line would run past the chart's width; two fit above the plot. */
function noteLines(note: string): string[] {
  const lines: string[] = [];
  if (!note) return lines;
  for (const part of note.split('; ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last}; ${part}`.length <= NOTE_LINE_CHARS) lines[lines.length - 1] = `${last}; ${part}`;
    else lines.push(part);
  }
  if (lines.length > 2) throw new Error(`a chart's note takes two lines at most: "${note}"`);
  return lines;
}

function frame(title: string, note: string | undefined, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="12" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    ...noteLines(note ?? '').map(
      (line, index) =>
        `<text x="${WIDTH / 2}" y="${34 + index * 11}" text-anchor="middle" font-size="11" fill="#555555">${escapeXml(line)}</text>`,
    ),
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

function yAxis(yMax: number, yLabel: string): string[] {
  const lines: string[] = [];
  for (let step = 0; step <= 5; step++) {
    const value = (yMax * step) / 5;
    const y = round(MARGIN.top + PLOT.height - (PLOT.height * step) / 5);
    lines.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + PLOT.width}" y1="${y}" y2="${y}" stroke="#e0e0e0"/>`);
    lines.push(`<text x="${MARGIN.left - 6}" y="${y + 4}" text-anchor="end">${tickLabel(value)}</text>`);
  }
  const middle = MARGIN.top + PLOT.height / 2;
  lines.push(`<text x="16" y="${middle}" text-anchor="middle" transform="rotate(-90 16 ${middle})">${escapeXml(yLabel)}</text>`);
  lines.push(
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + PLOT.height}" stroke="#333333"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + PLOT.width}" y1="${MARGIN.top + PLOT.height}" y2="${MARGIN.top + PLOT.height}" stroke="#333333"/>`,
  );
  return lines;
}

function legend(names: readonly string[]): string[] {
  return names.flatMap((name, index) => {
    const x = WIDTH - MARGIN.right + 14;
    const y = MARGIN.top + 8 + index * 20;
    return [
      `<rect x="${x}" y="${y - 9}" width="12" height="12" fill="${COLOURS[index % COLOURS.length]}"/>`,
      `<text x="${x + 18}" y="${y + 1}">${escapeXml(name)}</text>`,
    ];
  });
}

/** A line chart of each series' points, with a marker on every measured point. */
export function lineChartSvg(chart: LineChart): string {
  const xs = chart.series.flatMap((series) => series.points.map(([x]) => x));
  const ys = chart.series.flatMap((series) => series.points.map(([, y]) => y));
  if (xs.length === 0) throw new Error(`chart "${chart.title}" has no points`);
  const scaleX = chart.logX ? Math.log10 : (value: number) => value;
  const [low, high] = [Math.min(...xs.map(scaleX)), Math.max(...xs.map(scaleX))];
  const span = high - low || 1;
  const yMax = niceCeiling(Math.max(...ys));
  const px = (x: number) => round(MARGIN.left + ((scaleX(x) - low) / span) * PLOT.width);
  const py = (y: number) => round(MARGIN.top + PLOT.height - (y / yMax) * PLOT.height);
  const body = yAxis(yMax, chart.yLabel);
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    body.push(`<text x="${px(x)}" y="${MARGIN.top + PLOT.height + 16}" text-anchor="middle">${tickLabel(x)}</text>`);
  }
  body.push(`<text x="${MARGIN.left + PLOT.width / 2}" y="${HEIGHT - 10}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`);
  chart.series.forEach((series, index) => {
    const colour = COLOURS[index % COLOURS.length];
    const points = [...series.points].sort(([a], [b]) => a - b);
    body.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map(([x, y]) => `${px(x)},${py(y)}`).join(' ')}"/>`,
    );
    for (const [x, y] of points)
      body.push(`<circle cx="${px(x)}" cy="${py(y)}" r="3.5" fill="${colour}"><title>${tickLabel(y)}</title></circle>`);
  });
  return frame(chart.title, chart.note, [...body, ...legend(chart.series.map((series) => series.name))]);
}

/** Grouped bars: for each group, one bar per series, its value written above it. */
export function barChartSvg(chart: BarChart): string {
  const values = chart.series.flatMap((series) => series.values);
  if (values.length === 0) throw new Error(`chart "${chart.title}" has no values`);
  const yMax = chart.yMax ?? niceCeiling(Math.max(...values));
  const groupWidth = PLOT.width / chart.groups.length;
  const barWidth = (groupWidth * 0.8) / chart.series.length;
  const body = yAxis(yMax, chart.yLabel);
  chart.groups.forEach((group, groupIndex) => {
    const left = MARGIN.left + groupIndex * groupWidth + groupWidth * 0.1;
    body.push(
      `<text x="${round(left + groupWidth * 0.4)}" y="${MARGIN.top + PLOT.height + 16}" text-anchor="middle">${escapeXml(group)}</text>`,
    );
    chart.series.forEach((series, seriesIndex) => {
      const value = series.values[groupIndex] ?? 0;
      const height = round((Math.min(value, yMax) / yMax) * PLOT.height);
      const x = round(left + seriesIndex * barWidth);
      const y = round(MARGIN.top + PLOT.height - height);
      body.push(
        `<rect x="${x}" y="${y}" width="${round(barWidth - 2)}" height="${height}" fill="${COLOURS[seriesIndex % COLOURS.length]}"><title>${escapeXml(series.name)}: ${tickLabel(value)}</title></rect>`,
      );
    });
  });
  return frame(chart.title, chart.note, [...body, ...legend(chart.series.map((series) => series.name))]);
}

/** Writes a chart where bench/README.md shows it; answers the path, for the bench to print. */
export function writeChart(path: string, svg: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, svg);
  return path;
}
