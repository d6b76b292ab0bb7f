import autocannon from 'autocannon';

/** Throughput and latency of one closed-loop run (autocannon: `concurrency` connections, keep-alive). */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses by status code ("200": n, "429": n, ...). */
  statuses?: Record<string, number>;
}

export async function runLoad(opts: {
  url: string;
  concurrency: number;
  seconds: number;
  body: string;
  /** Headers of the n-th request (keys and client addresses rotate so no limit trips). */
  headers: (n: number) => Record<string, string>;
}): Promise<LoadResult> {
  let n = 0;
  const result = await autocannon({
    url: opts.url,
    connections: opts.concurrency,
    duration: opts.seconds,
    method: 'POST',
    body: opts.body,
    requests: [{ setupRequest: (req: any) => ({ ...req, headers: { 'content-type': 'application/json', ...opts.headers(n++) } }) }],
  } as autocannon.Options);
  return {
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, (v as { count: number }).count])),
  };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
/** autocannon's latencies have 1 ms resolution. */
export const ms = (n: number) => (n < 1 ? '<1' : n.toFixed(0));
