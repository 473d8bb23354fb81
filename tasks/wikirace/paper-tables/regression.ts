import { tQuantile975 } from '../../../common/stats.js';

/** A least-squares line y = intercept + slope x, with the slope's 95% interval (Student's t, n - 2 df). */
export interface LineFit {
  n: number;
  slope: number;
  intercept: number;
  /** Null below 3 points (no residual degrees of freedom). */
  slope_lo: number | null;
  slope_hi: number | null;
}

/** Ordinary least squares of y on x; null when fewer than 2 points or every x is the same. */
export function fitLine(points: readonly { x: number; y: number }[]): LineFit | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const slope = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / sxx;
  const intercept = my - slope * mx;
  if (n < 3) return { n, slope, intercept, slope_lo: null, slope_hi: null };
  const residual = points.reduce((a, p) => a + (p.y - intercept - slope * p.x) ** 2, 0);
  const half = tQuantile975(n - 2) * Math.sqrt(residual / (n - 2) / sxx);
  return { n, slope, intercept, slope_lo: slope - half, slope_hi: slope + half };
}
