import { z } from 'zod';

/**
 * Argument pieces shared by several tools. Each accepts the spellings agents commonly send; pieces whose
 * type has no plain JSON name carry a `typeLabel` for the tools' help. Each is built on first use, like the
 * tools' schemas (define.ts): resolving tool names (the verifier) builds none.
 */

const builtOnce = <T>(build: () => T): (() => T) => {
  let schema: T | undefined;
  return () => (schema ??= build());
};

/** A number, also when sent as a numeric string ("48.85"). */
export const numberLike = builtOnce(() =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), z.number()),
);

export const latitude = builtOnce(() => numberLike().pipe(z.number().min(-90).max(90)).describe('decimal degrees'));
export const longitude = builtOnce(() => numberLike().pipe(z.number().min(-180).max(180)).describe('decimal degrees'));

/** A calendar date, YYYY-MM-DD. */
export const isoDate = builtOnce(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
    .describe('date as YYYY-MM-DD'),
);

const nonEmpty = (what: string) => z.string().trim().min(1, `${what} must not be empty`);
export const text = (what: string) => nonEmpty(what).describe(what);

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/**
 * One point: {latitude, longitude}, {lat, lng}, [lat, lng] or "lat,lng".
 */
export const point = builtOnce(() => z.preprocess((v) => {
  if (typeof v === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(v);
    return m ? { latitude: Number(m[1]), longitude: Number(m[2]) } : v;
  }
  if (Array.isArray(v) && v.length === 2) return { latitude: v[0], longitude: v[1] };
  if (v && typeof v === 'object' && 'lat' in v && ('lng' in v || 'lon' in v)) {
    const o = v as Record<string, unknown>;
    return { latitude: o.lat, longitude: o.lng ?? o.lon };
  }
  return v;
}, z.object({ latitude: latitude(), longitude: longitude() })).meta({ typeLabel: '{latitude, longitude}' }));

/** A place: free text, or coordinates given as a point. */
export const place = builtOnce(() => z.union([nonEmpty('place'), point()]).meta({ typeLabel: 'string | {latitude, longitude}' }));

/** A list of places; a single place is accepted as a list of one. */
export const placeList = (what: string) =>
  z
    .preprocess((v) => (Array.isArray(v) ? v : v === undefined ? v : [v]), z.array(place()).min(1, `${what} must list at least one place`))
    .meta({ typeLabel: 'list of places' });

/** Accepts {lat, lng}, a `location`/`latlng` point or "lat,lng" where a tool wants top-level latitude/longitude. */
export const flattenPoint = (v: unknown): unknown => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if (o.latitude !== undefined || o.longitude !== undefined) return o;
  const source = o.location ?? o.latlng ?? (o.lat !== undefined ? { lat: o.lat, lng: o.lng ?? o.lon } : undefined);
  const parsed = point().safeParse(source);
  return parsed.success ? { ...o, ...parsed.data } : o;
};
