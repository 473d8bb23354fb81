/** Limits of one provider's traffic; keys of `HttpClientOptions.limits` are provider names (`google-maps`, ...). */
export interface ProviderLimits {
  /** Requests in flight at once. */
  concurrency: number;
  /** At most `intervalCap` requests start per `interval` ms (both needed; unset = no rate limit). */
  intervalCap?: number;
  interval?: number;
  /** Per-attempt timeout, covering the response body too. */
  timeoutMs: number;
  /** Attempts in total, the first included. */
  maxAttempts: number;
}

/**
 * A live provider is transport only: its name (also the key of its limits in the HTTP client), the base
 * URLs of its upstream (tests point them at local servers), the host variables holding its keys and the
 * default limits of its traffic. The tools it serves make their calls over it in their own definitions
 * (tools/catalog).
 */
export interface ProviderSpec {
  name: string;
  /** Endpoint name to default base URL, e.g. `{ serper: 'https://google.serper.dev' }`. */
  endpoints: Readonly<Record<string, string>>;
  /** Key name (as in ProviderContext.keys) to the host variable holding it, e.g. `{ serper: 'SERPER_API_KEY' }`. */
  keys?: Readonly<Record<string, string>>;
  /** Its traffic's default limits in the HTTP client, under its name (and any other key its calls use, as `web` keeps Wikipedia's API apart). */
  limits?: Readonly<Record<string, Partial<ProviderLimits>>>;
}
