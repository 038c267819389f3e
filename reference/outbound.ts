// Where the reference may open connections: its webhook deliveries and its JWKS fetches.
// By default anywhere. With an outbound host (REFERENCE_OUTBOUND_HOST) only to that host:
// the reference then plays a service on another machine, which cannot call the harness's
// own loopback address, so a run that does not announce a reachable receiver and
// identity provider (RECEIVER_/IDP_ settings) goes wrong here as it would against such a
// service (README: "Reaching your service").
// Under added latency (network conditions) every connection starts that much later.

export class Outbound {
  /**
   * `onlyHost`: a host name or address as a URL carries it (IPv6 with or without brackets).
   * `beforeConnect`: awaited before each connection is opened (the added latency).
   */
  constructor(
    private readonly onlyHost?: string,
    readonly beforeConnect: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Why a connection to `url` is refused, or undefined when it is allowed. */
  refusal(url: URL): string | undefined {
    if (this.onlyHost === undefined || bare(url.hostname) === bare(this.onlyHost)) return undefined;
    return `outbound connections go only to ${this.onlyHost} (REFERENCE_OUTBOUND_HOST), not to ${url.hostname}`;
  }

  /** fetch, refused (as a network error) for a host the reference may not call. */
  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const refusal = this.refusal(new URL(input));
    if (refusal) throw new TypeError(`fetch failed: ${refusal}`);
    await this.beforeConnect();
    return fetch(input, init);
  };
}

function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}
