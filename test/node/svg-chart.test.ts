import { describe, expect, it } from 'vitest';
import { barChartSvg, lineChartSvg, measuredUnder, niceCeiling } from '../../bench/svg-chart.ts';

describe('the benches’ SVG charts', () => {
  it('draws a line per series through its points, on a log axis when asked', () => {
    const svg = lineChartSvg({
      title: 'Latency <search> & size',
      xLabel: 'agents',
      yLabel: 'ms',
      logX: true,
      series: [
        {
          name: 'p50',
          points: [
            [100_000, 17],
            [10_000, 9],
          ],
        },
        {
          name: 'p99',
          points: [
            [10_000, 20],
            [100_000, 38],
          ],
        },
      ],
    });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Latency &lt;search&gt; &amp; size');
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(4);
    // 10k at the left edge of the plot (x 64), 100k at its right (490); the y axis tops at 50 ms (y 48), 0 at y 310.
    const [first] = /points="([^"]+)"/.exec(svg)!.slice(1);
    expect(first).toBe('64,262.8 490,220.9');
    expect(svg).toContain('>50</text>');
  });

  it('draws a bar per group and series, capped at the axis it is given', () => {
    const svg = barChartSvg({
      title: 'MRR',
      yLabel: 'MRR',
      yMax: 1,
      groups: ['natural', 'typo', 'overall'],
      series: [
        { name: 'ours', values: [0.9, 0.95, 0.93] },
        { name: 'peer', values: [0.5, 0.6, 0.55] },
      ],
    });
    expect(svg.match(/<rect x=/g)).toHaveLength(6 + 2);
    expect(svg).toContain('<title>ours: 0.95</title>');
    expect(svg).toContain('>natural</text>');
  });

  it('refuses a chart with nothing to draw, and rounds axes up to 1, 2 or 5 × 10ⁿ', () => {
    expect(() => lineChartSvg({ title: 'empty', xLabel: 'x', yLabel: 'y', series: [] })).toThrow(/no points/);
    expect([0.3, 1, 1.2, 38, 61, 480, 0].map(niceCeiling)).toEqual([0.5, 1, 2, 50, 100, 500, 1]);
  });
  it('states the runtime, the configuration and the load under the title, on a second line when one would not hold it', () => {
    const note = measuredUnder('registry Worker, workerd via Miniflare', '9 query kinds × 12 rounds, default (hybrid) ranking');
    expect(note).toMatch(
      /^registry Worker, workerd via Miniflare; 9 query kinds × 12 rounds, default \(hybrid\) ranking; \d{4}-\d\d-\d\d, load \d+\.\d–\d+\.\d on \d+ cores$/,
    );
    const svg = barChartSvg({ title: 'MRR', note, yLabel: 'MRR', groups: ['a'], series: [{ name: 'ours', values: [1] }] });
    const lines = [...svg.matchAll(/<text [^>]*fill="#555555">([^<]*)<\/text>/g)].map((match) => match[1]);
    expect(lines).toEqual([note.slice(0, note.lastIndexOf('; ')), note.slice(note.lastIndexOf('; ') + 2)]);
    expect(() =>
      barChartSvg({ ...{ title: 'x', yLabel: 'y', groups: ['a'], series: [{ name: 's', values: [1] }] }, note: `${note}; ${note}` }),
    ).toThrow(/two lines at most/);
  });
});
