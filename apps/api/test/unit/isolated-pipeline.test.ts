import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentPipelineError, type VerificationImages } from '../../src/pipeline/pipeline.js';
import {
  childHeapFlags,
  IsolatedPipeline,
  PIPELINE_CRASHED,
  PipelineUnavailableError,
} from '../../src/pipeline-runner/isolated-pipeline.js';
import { processUsage } from '../../src/pipeline-runner/process-usage.js';

const MODULE = new URL('../fixtures/pipeline-module.mjs', import.meta.url).href;
let pipeline: IsolatedPipeline;
let images: VerificationImages;
const request = (name: string) => ({ documentType: null, submittedFullName: name, country: null });

beforeAll(async () => {
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
  images = { docFront: jpeg, docBack: null, selfie: jpeg, liveness: null };
  pipeline = new IsolatedPipeline({
    size: 2,
    moduleUrl: MODULE,
    budget: { wallMs: 4_000, cpuMs: 1_500, memoryBytes: 400 * 1024 * 1024 },
    pollMs: 50,
  });
});
afterAll(() => pipeline?.stop());

const unreadable = { verdict: 'rejected', reasons: ['document_unreadable'] };

describe('isolated pipeline (child processes with a budget)', () => {
  it('runs in another process and gets Buffers back', async () => {
    const out = await pipeline.run(request('ok'), images);
    expect(out).toMatchObject({ verdict: 'approved', reasons: [`bytes:${images.docFront.length}:true`] });
    expect(pipeline.pids()).not.toContain(process.pid);
  });

  it('a run is told whether it is alone (its pipeline may then read ahead on idle cores); one beside another is not', async () => {
    expect(await pipeline.run(request('hints'), images)).toMatchObject({ reasons: ['alone:true'] });
    const first = pipeline.run(request('hints'), images);
    // The first run is sent to its child once its (already resolved) hand-over has run: a turn of
    // the event loop, after which the second sees it working.
    await new Promise((r) => setImmediate(r));
    const second = pipeline.run(request('hints'), images);
    expect((await first).reasons).toEqual(['alone:true']);
    expect((await second).reasons).toEqual(['alone:false']);
  });

  it("children run with glibc's allocator told to return buffers over 4 MiB (memory comes back) and reuse smaller ones", async () => {
    expect(await pipeline.run(request('env'), images)).toMatchObject({ reasons: [`arenas:2:mmap:${4 * 1024 * 1024}`] });
  });

  it('a run that never ends is killed at its wall-clock budget and judged unreadable', async () => {
    const started = Date.now();
    expect(await pipeline.run(request('hang'), images)).toMatchObject(unreadable);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('a run that burns CPU is killed (CPU budget, or the wall clock on a busy machine) and judged unreadable', async () => {
    expect(await pipeline.run(request('spin'), images)).toMatchObject(unreadable);
  }, 60_000);

  it('a run that allocates native memory is killed at its memory budget', async () => {
    expect(await pipeline.run(request('alloc'), images)).toMatchObject(unreadable);
  });

  it('a child that crashes ends the run as failed (pipeline_crashed); the next run gets a fresh child', async () => {
    const err = await pipeline.run(request('crash'), images).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentPipelineError);
    expect((err as PermanentPipelineError).code).toBe(PIPELINE_CRASHED);
    expect(await pipeline.run(request('ok'), images)).toMatchObject({ verdict: 'approved' });
  });

  it("an unhandled rejection inside the child ends that child only (tfjs's rethrowing handlers are replaced)", async () => {
    const err = await pipeline.run(request('floating'), images).catch((e: unknown) => e);
    expect((err as PermanentPipelineError).code).toBe(PIPELINE_CRASHED);
    expect(await pipeline.run(request('ok'), images)).toMatchObject({ verdict: 'approved' });
  });

  it('errors keep their kind: permanent stays permanent, anything else may be retried', async () => {
    const permanent = await pipeline.run(request('permanent'), images).catch((e: unknown) => e);
    expect((permanent as PermanentPipelineError).code).toBe('selfie_disappeared');
    const transient = await pipeline.run(request('throw'), images).catch((e: unknown) => e);
    expect(transient).toBeInstanceOf(Error);
    expect(transient).not.toBeInstanceOf(PermanentPipelineError);
  });

  it('two runs at once use two processes; a third waits for one', async () => {
    const started = Date.now();
    const runs = await Promise.all([
      pipeline.run(request('hang'), images),
      pipeline.run(request('ok'), images),
      pipeline.run(request('ok'), images),
    ]);
    expect(runs.map((r) => r.verdict)).toEqual(['rejected', 'approved', 'approved']);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('a header claiming more pixels than the limit is refused before any child sees it', async () => {
    const huge = Buffer.from(images.docFront);
    const sof = huge.indexOf(Buffer.from([0xff, 0xc0]));
    huge.writeUInt16BE(7000, sof + 5);
    huge.writeUInt16BE(7000, sof + 7);
    const pids = pipeline.pids();
    const cpuBefore = pids.map((p) => processUsage(p)?.cpuMs ?? 0);
    expect(await pipeline.run(request('spin'), { ...images, docFront: huge })).toMatchObject(unreadable);
    // Were it run, 'spin' would have burnt its CPU budget.
    const cpuAfter = pids.map((p) => processUsage(p)?.cpuMs ?? 0);
    expect(cpuAfter.reduce((a, b) => a + b, 0) - cpuBefore.reduce((a, b) => a + b, 0)).toBeLessThan(500);
  });

  it('a child recycled for its memory is never handed to the next run while it dies (no pipeline_crashed)', async () => {
    const small = new IsolatedPipeline({
      size: 1,
      moduleUrl: MODULE,
      budget: { wallMs: 10_000, cpuMs: 5_000, memoryBytes: 600 * 1024 * 1024 },
      recycleRssBytes: 150 * 1024 * 1024,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const pid = small.pids()[0];
        expect(await small.run(request('grow'), images)).toMatchObject({ verdict: 'approved' });
        // Asked for at once, while the recycled child is still exiting.
        expect(await small.run(request('ok'), images)).toMatchObject({ verdict: 'approved' });
        expect(small.pids()).not.toContain(pid);
      }
    } finally {
      await small.stop();
    }
  }, 120_000);

  it('at rest keeps one child, the smallest; a run wakes the pool back to its size', async () => {
    const pool = new IsolatedPipeline({
      size: 2,
      moduleUrl: MODULE,
      budget: { wallMs: 10_000, cpuMs: 5_000, memoryBytes: 1024 * 1024 * 1024 },
      rest: { afterMs: 300, children: 1 },
    });
    try {
      // Both start warm; once quiet for 300 ms, one is stopped.
      await expect.poll(() => pool.pids().length, { timeout: 30_000 }).toBe(1);
      const kept = pool.pids()[0]!;
      // A run wakes the pool: it gets the warm child at once, and the second starts loading.
      expect(await pool.run(request('grow'), images)).toMatchObject({ verdict: 'approved' });
      expect(pool.pids().length).toBe(2);
      // At rest again: the grown child (192 MB more) is the one stopped.
      await expect.poll(() => pool.pids().length, { timeout: 30_000 }).toBe(1);
      expect(pool.pids()).not.toContain(kept);
      // Two at once after rest: both served.
      const both = await Promise.all([pool.run(request('hints'), images), pool.run(request('hints'), images)]);
      expect(both.map((o) => o.verdict)).toEqual(['approved', 'approved']);
    } finally {
      await pool.stop();
    }
  }, 120_000);

  it('at rest a kept child that grew is replaced by a fresh one, which takes over once ready', async () => {
    const pool = new IsolatedPipeline({
      size: 1,
      moduleUrl: MODULE,
      budget: { wallMs: 10_000, cpuMs: 5_000, memoryBytes: 1024 * 1024 * 1024 },
      rest: { afterMs: 300, children: 1, growthBytes: 64 * 1024 * 1024 },
    });
    try {
      await expect.poll(() => pool.idleCount(), { timeout: 30_000 }).toBe(1);
      const grown = pool.pids()[0]!;
      const before = processUsage(grown)!.rssBytes;
      expect(await pool.run(request('grow'), images)).toMatchObject({ verdict: 'approved' });
      expect(processUsage(grown)!.rssBytes - before).toBeGreaterThan(64 * 1024 * 1024);
      await expect.poll(() => pool.pids(), { timeout: 30_000 }).not.toContain(grown);
      expect(pool.pids()).toHaveLength(1);
      const fresh = pool.pids()[0]!;
      expect(processUsage(fresh)!.rssBytes).toBeLessThan(before + 64 * 1024 * 1024);
      expect(await pool.run(request('ok'), images)).toMatchObject({ verdict: 'approved' });
    } finally {
      await pool.stop();
    }
  }, 120_000);

  it('a run whose job has no time left for a whole run is given back to be retried, not judged', async () => {
    const err = await pipeline.run(request('hang'), images, Date.now() + 500).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PipelineUnavailableError);
  });
});

describe('childHeapFlags', () => {
  it("caps a child's heap at its memory budget and starts its old generation at 128 MB (never over half the cap)", () => {
    expect(childHeapFlags(1024 * 1024 * 1024)).toEqual(['--max-old-space-size=1024', '--initial-old-space-size=128']);
    expect(childHeapFlags(256 * 1024 * 1024)).toEqual(['--max-old-space-size=256', '--initial-old-space-size=128']);
    // Below the smallest cap the cap stays 128 MB and the start is half of it.
    expect(childHeapFlags(64 * 1024 * 1024)).toEqual(['--max-old-space-size=128', '--initial-old-space-size=64']);
  });
});
