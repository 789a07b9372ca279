/**
 * Line charts (uPlot, canvas) over commits, with change points marked: each marker is a DOM element laid over
 * the plot at its commit, carrying its state, so it is visible, hoverable and inspectable.
 */
import uPlot from 'uplot';
import { h, short } from './dom.ts';

export interface Marker {
  readonly index: number;
  readonly state: string;
  readonly title: string;
}

export interface ChartSpec {
  readonly label: string;
  readonly shas: readonly string[];
  readonly values: readonly (number | null)[];
  readonly markers?: readonly Marker[];
  readonly height?: number;
  /** Further lines on the same axes (then a legend names them all). */
  readonly more?: readonly {
    readonly label: string;
    readonly values: readonly (number | null)[];
    readonly stroke: string;
  }[];
}

export function lineChart(parent: HTMLElement, spec: ChartSpec): HTMLElement {
  const box = h('div', { class: 'chart', 'data-label': spec.label });
  parent.appendChild(box);
  const xs = spec.shas.map((_, i) => i);
  const width = Math.max(320, Math.min(parent.clientWidth || 900, 1100));
  // Markers go on once uPlot has laid out its scales (valToPos is meaningless before the first commit).
  const place = (u: uPlot) => {
    for (const m of spec.markers ?? []) {
      const left = u.valToPos(m.index, 'x');
      const y = spec.values[m.index];
      u.over.appendChild(
        h('span', {
          class: `marker marker-${m.state}`,
          'data-state': m.state,
          'data-sha': spec.shas[m.index],
          title: m.title,
          style: `left:${left}px`,
        }),
      );
      if (y !== null && y !== undefined)
        u.over.appendChild(
          h('span', { class: `dot marker-${m.state}`, style: `left:${left}px;top:${u.valToPos(y, 'y')}px` }),
        );
    }
    box.setAttribute('data-drawn', '');
  };
  new uPlot(
    {
      width,
      height: spec.height ?? 200,
      legend: { show: (spec.more?.length ?? 0) > 0 },
      scales: { x: { time: false } },
      axes: [
        { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? short(spec.shas[t] ?? '') : '')) },
        { size: 70, values: (_u, ticks) => ticks.map((t) => compact(t)) },
      ],
      series: [
        {
          label: 'commit',
          value: (_u, v) => (v === null || v === undefined ? '--' : short(spec.shas[v] ?? '')),
        },
        { label: spec.label, stroke: '#0969da', width: 1.5, points: { size: 4 } },
        ...(spec.more ?? []).map((m) => ({
          label: m.label,
          stroke: m.stroke,
          width: 1.5,
          points: { size: 4 },
        })),
      ],
      hooks: { ready: [place] },
    },
    [xs, spec.values as number[], ...(spec.more ?? []).map((m) => m.values as number[])],
    box,
  );
  return box;
}

function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toFixed(2)}G`;
  if (a >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(2)}`;
}
