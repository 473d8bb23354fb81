/** The trial contract: what the harness writes into a trial folder and what the verifier and reports read. */
export * from './folder.js';
export * from './record.js';
export * from './run-facts.js';
export * from './tool-log.js';
export * from './copy-limits.js';
export * from './file-hashes.js';
