import { createHash } from 'node:crypto';

/** One request as a stand-in upstream sees it (the path below its prefix). */
export interface StandInRequest {
  upstream: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: unknown;
}

/** A reply: an object body is sent as JSON, a string as text. */
export interface StandInReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export const json = (body: unknown, status = 200): StandInReply => ({ status, body });

/** A stable number in [0, 1) for a text: the stand-ins' made-up details (ratings, seconds, names) come from it. */
export function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** A stable whole number in [lo, hi]. */
export const between = (text: string, lo: number, hi: number): number => lo + Math.floor(unit(text) * (hi - lo + 1));

/** Google-style durations and distances for people: "6 hours 5 mins", "1 min", "203 km", "850 m". */
export function durationText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const part = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (days) return [part(days, 'day', 'days'), hours ? part(hours, 'hour', 'hours') : ''].filter(Boolean).join(' ');
  if (hours) return [part(hours, 'hour', 'hours'), mins ? part(mins, 'min', 'mins') : ''].filter(Boolean).join(' ');
  return part(Math.max(1, mins), 'min', 'mins');
}

export function distanceText(meters: number, units = 'metric'): string {
  if (units === 'imperial') {
    const miles = meters / 1609.344;
    return miles < 0.1 ? `${Math.round(meters * 3.28084)} ft` : `${miles < 10 ? miles.toFixed(1) : Math.round(miles)} mi`;
  }
  if (meters < 1000) return `${Math.round(meters)} m`;
  const km = meters / 1000;
  return `${km < 10 ? km.toFixed(1) : Math.round(km).toLocaleString('en-US')} km`;
}

/** Great-circle distance in meters. */
export function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}
