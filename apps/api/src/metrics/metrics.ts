import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What an operator of a fleet watches, in Prometheus' format (`prom-client`): one registry per
 * service instance (tests run several in one process). Labels are bounded: route patterns, never
 * raw paths; no ids, names or keys.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: 'service_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'service_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'service_job_duration_seconds',
    help: 'Job run time by queue and outcome (ok, error)',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly verdicts = new Counter({
    name: 'service_verifications_finished_total',
    help: 'Verifications finished by outcome (approved, review, rejected, failed) and mode',
    labelNames: ['outcome', 'mode'] as const,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'service_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly blobStore = new Histogram({
    name: 'service_blob_store_duration_seconds',
    help: 'Blob store operation latency by operation and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3, 10],
    registers: [this.registry],
  });

  /** `queueDepth`: jobs waiting per queue, read at each scrape (the queue's own table). */
  constructor(queueDepth?: () => Promise<Record<string, number>>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'service_' });
    if (queueDepth) {
      new Gauge({
        name: 'service_queue_depth',
        help: 'Jobs waiting (created or retrying) per queue',
        labelNames: ['queue'] as const,
        registers: [this.registry],
        async collect() {
          // A scrape during a database outage shows the last values rather than failing.
          const depths = await queueDepth().catch(() => null);
          for (const [queue, n] of Object.entries(depths ?? {})) this.set({ queue }, n);
        },
      });
    }
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  job(queue: string, ok: boolean, seconds: number): void {
    this.jobDuration.observe({ queue, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  finished(outcome: 'approved' | 'review' | 'rejected' | 'failed', mode: string): void {
    this.verdicts.inc({ outcome, mode });
  }

  delivery(outcome: 'delivered' | 'retrying' | 'failed'): void {
    this.deliveries.inc({ outcome });
  }

  blob(operation: string, ok: boolean, seconds: number): void {
    this.blobStore.observe({ operation, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
