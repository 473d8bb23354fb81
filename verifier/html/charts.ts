import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { ChartSpec } from './family-view.js';

/** The look every chart shares: the page's font and palette, no frame around the plot. */
const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  background: 'white',
  padding: 8,
  view: { stroke: null },
  range: { category: ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#eeca3b', '#9d755d', '#ff9da6', '#bab0ac'] },
  axis: { labelColor: '#444', titleColor: '#333', gridColor: '#e6e6e6', domainColor: '#999', tickColor: '#999', titleFontWeight: 'normal' },
  legend: { labelColor: '#333', titleColor: '#333', titleFontWeight: 'normal', orient: 'bottom', direction: 'horizontal' },
  header: { labelColor: '#222' },
};

/** Element ids made unique per chart: several inline SVGs share one document, and clip paths refer to ids. */
function scopeIds(svg: string, prefix: string): string {
  return svg.replace(/\bid="([^"]+)"/g, `id="${prefix}-$1"`).replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`).replace(/href="#([^"]+)"/g, `href="#${prefix}-$1"`);
}

/** A Vega-Lite spec compiled to Vega and rendered to SVG on the host (no canvas, no browser). */
export async function renderChartSvg(chart: ChartSpec, index: number): Promise<string> {
  const spec = { ...chart.spec, config: { ...CHART_CONFIG, ...(chart.spec.config as object | undefined) } };
  const compiled = vl.compile(spec as unknown as vl.TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return scopeIds(svg, `chart${index}`);
  } finally {
    view.finalize();
  }
}
