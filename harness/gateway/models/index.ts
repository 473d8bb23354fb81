export { createModelHandler, type ModelHandlerOptions } from './proxy.js';
export { modelHandlerFor } from './handler.js';
export { findPrice, loadPriceTable, parsePriceTable, requestCost, type ModelPrice, type PriceTable } from './prices.js';
export type { ModelLogEntry } from './model-log.js';
export type { RequestTokens } from './tokens.js';
