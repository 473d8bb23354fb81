/**
 * A live provider is transport only: its name (also the key of its limits in the HTTP client), the base
 * URLs of its upstream (tests point them at local servers) and the host variables holding its keys. The
 * tools it serves make their calls over it in their own definitions (tools/catalog).
 */
export interface ProviderSpec {
  name: string;
  /** Endpoint name to default base URL, e.g. `{ serper: 'https://google.serper.dev' }`. */
  endpoints: Readonly<Record<string, string>>;
  /** Key name (as in ProviderContext.keys) to the host variable holding it, e.g. `{ serper: 'SERPER_API_KEY' }`. */
  keys?: Readonly<Record<string, string>>;
}
