/** The live providers (tools/providers/registry.ts); a tool that runs on the host names the one serving it. */
export type ProviderName = 'web' | 'serper' | 'google-maps' | 'open-meteo' | 'rest-countries' | 'yahoo-finance' | 'binance' | 'code-model';
