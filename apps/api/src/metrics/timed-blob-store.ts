import type { BlobStore } from '../storage/blob-store.js';
import type { Metrics } from './metrics.js';

/** A blob store whose every call is timed into `service_blob_store_duration_seconds`. */
export function timedBlobStore(inner: BlobStore, metrics: Metrics): BlobStore {
  const timed =
    <A extends unknown[], R>(operation: string, call: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const started = performance.now();
      try {
        const r = await call(...a);
        metrics.blob(operation, true, (performance.now() - started) / 1000);
        return r;
      } catch (err) {
        metrics.blob(operation, false, (performance.now() - started) / 1000);
        throw err;
      }
    };
  return {
    put: timed('put', (k: string, b: Buffer, within?: Parameters<BlobStore['put']>[2]) => inner.put(k, b, within)),
    get: timed('get', (k: string) => inner.get(k)),
    exists: timed('exists', (k: string) => inner.exists(k)),
    deletePrefix: timed('delete', (p: string) => inner.deletePrefix(p)),
    ready: () => inner.ready(),
  };
}
