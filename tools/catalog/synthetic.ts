import { createHash } from 'node:crypto';
import type { LatLng } from './maps-formats.js';

/**
 * Helpers for the tools' answers in the synthetic golden world (tasks/aar/world/synthesize.ts): stable
 * made-up data derived from the call, so that the same call always gets the same answer.
 */

export const syntheticHash = (text: string): number => createHash('sha256').update(text).digest().readUInt32BE(0);

/** Stable made-up coordinates for a place name. */
export function syntheticCoordinates(place: string): LatLng {
  const h = syntheticHash(place);
  return { lat: Math.round(((h % 140_000) / 1000 - 70) * 1e5) / 1e5, lng: Math.round((((h >>> 8) % 360_000) / 1000 - 180) * 1e5) / 1e5 };
}

/** A golden value read as a number. */
export const numeric = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
