import type { ServerResponse } from 'node:http';
import { findRoute, modelApi } from './apis/registry.js';

/** A route's `api` (`anthropic-messages`, `openai-chat` ...) and a model API's id (`anthropic`): see apis/. */
export type ModelApi = string;
export type ModelProvider = string;

export interface ModelRoute {
  api: ModelApi;
  provider: ModelProvider;
  /** A model turn: counted in the trial's usage and held to its budget (count_tokens is not). */
  counted: boolean;
  upstreamUrl: string;
}

/** Base URLs by API id (`anthropic` -> `https://api.anthropic.com`); an API not given has its default. */
export type UpstreamBases = Readonly<Record<ModelProvider, string | undefined>>;

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The route of a gateway URL (`/anthropic/v1/messages?beta=true` ...) with its upstream URL, query kept. */
export function resolveRoute(method: string | undefined, url: string, bases: UpstreamBases): ModelRoute | undefined {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '');
  const query = q < 0 ? '' : url.slice(q);
  const found = findRoute(path);
  if (!found || method !== 'POST') return undefined;
  const { module, route } = found;
  const base = trimSlash(bases[module.id] ?? module.defaultBaseUrl);
  return { api: route.api, provider: module.id, counted: route.counted, upstreamUrl: base + route.upstreamPath + query };
}

/** An error in the provider's own shape, so the framework shows it as the API's error. */
export function sendModelError(res: ServerResponse, provider: ModelProvider, status: number, type: string, message: string, code?: string): void {
  const text = JSON.stringify(modelApi(provider).errorBody(type, message, code));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
