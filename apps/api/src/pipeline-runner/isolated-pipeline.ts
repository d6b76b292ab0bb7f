import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FailureCode } from '@service/contract';
import type { Logger } from '../http/logger.js';
import {
  PermanentPipelineError,
  type PipelineRequest,
  type VerificationImages,
  type VerificationOutcome,
  type VerificationPipeline,
} from '../pipeline/pipeline.js';
import { checkJpegStructure } from './jpeg-structure.js';
import { processUsage } from './process-usage.js';
import type { FromChild, ToChild } from './protocol.js';
import { unreadableOutcome } from './unreadable.js';

/** What one run may spend before it is stopped and its images judged unreadable. */
export interface RunBudget {
  wallMs: number;
  /** CPU time of the child, all its threads together. */
  cpuMs: number;
  /** Resident set of the child (native memory of sharp and the wasm heap included). */
  memoryBytes: number;
}

export interface IsolatedPipelineOptions {
  /** Child processes, i.e. runs at once. */
  size: number;
  budget: RunBudget;
  /** Module the children load (`createPipeline()`); default the vision pipeline. */
  moduleUrl?: string;
  /** A child whose resident set exceeds this after a run is replaced, so memory comes back. */
  recycleRssBytes?: number;
  /** Children started at once, the rest on demand (default all: a job never waits for models to load). */
  prewarm?: number;
  /**
   * At rest (no run and none waiting for `afterMs`), keep `children` warm and fresh: the others are
   * stopped, and a kept child that grew (over its size when ready plus `growthBytes`) is replaced
   * by a fresh one, which takes over once its models are loaded. The first run after rest starts
   * the pool back to `size`. Unset: every child stays as it is.
   */
  rest?: RestPolicy;
  logger?: Pick<Logger, 'warn' | 'error' | 'info'>;
  /** How often budgets are checked. */
  pollMs?: number;
}

export interface RestPolicy {
  afterMs: number;
  children: number;
  /** A kept child larger than it was when ready by more than this is replaced (default REST_GROWTH_BYTES). */
  growthBytes?: number;
}

/**
 * A child kept at rest is replaced when it holds more than this above its size when it was ready:
 * what its heaps and allocator kept of the work (a child grows by 100-200 MB over its first runs
 * and keeps it), not the few MB a single light run leaves.
 */
export const REST_GROWTH_BYTES = 48 * 1024 * 1024;

/** The pipeline had no child free (or none started) before the job's deadline: try again later. */
export class PipelineUnavailableError extends Error {}

/** The failure code of a verification whose pipeline child died mid-run. */
/**
 * glibc's allocator settings for a child (and the OCR engines it starts), unless the operator set
 * their own. With its defaults, libvips' and Tesseract's large short-lived buffers stay in
 * per-thread arenas after they are freed: a child grew to about 595 MB after 50 mixed runs. Two
 * arenas bound that. Buffers over 4 MiB are mapped (returned to the system when freed); smaller
 * ones, a page's pixels (1600 x 1200 grey is 1.9 MB) among them, are reused from the heap. Mapped
 * from 128 KiB up, as until the forty-eighth round, every such buffer was a fresh mapping, faulted
 * in and zeroed page by page: on 220 held-out cases one at a time, p50 764 -> 611 ms and p95
 * 1,712 -> 1,367 ms at 4 MiB, for children working at 650-670 MB instead of 550-620
 * (docs/operations.md, "Memory of the pipeline").
 */
const CHILD_ALLOCATOR = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(8 * 1024 * 1024),
} as const;

export const PIPELINE_CRASHED: FailureCode = 'pipeline_crashed';

/**
 * A child whose resident set (its OCR engines' included) exceeds this share of its memory budget
 * after a run is replaced, so memory a hostile image took comes back. The line must sit above an
 * ordinary child's working set, or children are replaced again and again, and a replacement costs
 * twice: 2 s of CPU loading its models beside the runs going on, and the spare that takes over
 * runs cold (its first run 2-3 s, the next few 0.3-0.6 s slower). At 60% (614 MB) a child working
 * at 550-590 MB went over it every 35-65 runs one at a time (the five replacements of 220 runs put
 * a dozen runs in the slowest twentieth); a child now works at 650-670 MB (`CHILD_ALLOCATOR`), and
 * at 75% none was replaced in 220 runs (docs/operations.md, forty-eighth round).
 */
export const RECYCLE_SHARE = 0.75;

/**
 * V8 flags of a child. Its own heap is capped (native memory, sharp's and the models', is watched
 * through the RSS). Its first old-generation limit is raised to 128 MB: a run allocates 30-60 MB
 * of pixel buffers, which V8 counts against a heap of about 25 MB live, so it ran four full
 * collections per run (114 in 30 runs, about 6% of the run's time). With the higher start, 24 in
 * 30, the same peak RSS (the buffers are freed by the young-generation collections), runs 6% faster.
 */
export function childHeapFlags(memoryBytes: number): string[] {
  const maxOldMb = Math.max(128, Math.floor(memoryBytes / 1024 / 1024));
  return [`--max-old-space-size=${maxOldMb}`, `--initial-old-space-size=${Math.min(128, Math.floor(maxOldMb / 2))}`];
}

/** Both src/ and dist/ sit two levels below the package: the child always runs the built JS. */
const DIST = new URL('../../dist/pipeline-runner/', import.meta.url);
const HOST = fileURLToPath(new URL('child-host.js', DIST));
const VISION_MODULE = new URL('vision-module.js', DIST).href;

interface Run {
  runId: number;
  settle(
    r:
      | { kind: 'result'; outcome: VerificationOutcome }
      | { kind: 'error'; message: string; permanentCode?: FailureCode }
      | { kind: 'exit'; message: string },
  ): void;
}

class Child {
  ready = false;
  run: Run | null = null;
  exited = false;
  /** Killed and not yet gone: never handed a run (its 'exit' would end that run as a crash). */
  retiring = false;
  fatal: string | null = null;
  /** Resident set (with its OCR engines) when its models were loaded: what a fresh child holds. */
  readyRss = 0;
  /** Replaced at rest while it had a run: stopped when the run ends. */
  retireAfterRun = false;
  readonly whenReady: Promise<boolean>;
  constructor(readonly proc: ChildProcess) {
    this.whenReady = new Promise((resolve) => {
      proc.on('message', (m: FromChild) => {
        if (m.type === 'ready') {
          this.ready = true;
          this.readyRss = processUsage(this.pid)?.rssBytes ?? 0;
          resolve(true);
        } else if (m.type === 'fatal') this.fatal = m.message;
        else if (this.run && m.runId === this.run.runId) {
          const run = this.run;
          this.run = null;
          run.settle(
            m.type === 'result'
              ? { kind: 'result', outcome: m.outcome }
              : { kind: 'error', message: m.message, permanentCode: m.permanentCode },
          );
        }
      });
      proc.once('exit', (code, signal) => {
        this.exited = true;
        resolve(false);
        const run = this.run;
        this.run = null;
        run?.settle({ kind: 'exit', message: this.fatal ?? `pipeline child exited (${signal ?? code})` });
      });
      proc.on('error', () => {}); // an 'exit' follows; a send to a dead child must not throw
    });
  }
  get pid() {
    return this.proc.pid ?? -1;
  }
  /** Ready, alive and free. */
  get idle(): boolean {
    return this.ready && !this.exited && !this.retiring && !this.run;
  }
  kill() {
    this.retiring = true;
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}

/**
 * The vision pipeline in child processes: a crash, a hang or a memory blow-up costs one child,
 * never the API. Each run gets a wall-clock, CPU-time and memory budget; a run over budget is
 * killed (SIGKILL, so it cannot keep working after its job gave up) and its images judged
 * unreadable. JPEG headers are checked before any child sees the bytes.
 */
export class IsolatedPipeline implements VerificationPipeline {
  private readonly children = new Set<Child>();
  private readonly waiters: { resolve: (c: Child) => void; reject: (err: Error) => void }[] = [];
  private nextRunId = 1;
  private stopped = false;
  /** Children kept alive: `size` while working, `rest.children` at rest. */
  private target: number;
  private restTimer: NodeJS.Timeout | null = null;
  private readonly opts: Required<Omit<IsolatedPipelineOptions, 'logger' | 'rest'>> & Pick<IsolatedPipelineOptions, 'logger' | 'rest'>;

  constructor(opts: IsolatedPipelineOptions) {
    this.opts = {
      moduleUrl: VISION_MODULE,
      recycleRssBytes: Math.floor(opts.budget.memoryBytes * RECYCLE_SHARE),
      prewarm: opts.size,
      pollMs: 100,
      ...opts,
    };
    this.target = Math.min(this.opts.prewarm, this.opts.size);
    for (let i = 0; i < this.target; i++) this.spawn();
  }

  /** Children with their models loaded and no run. */
  idleCount(): number {
    return [...this.children].filter((c) => c.idle).length;
  }

  /** Children alive now (for tests and the memory figure). */
  pids(): number[] {
    return [...this.children].filter((c) => !c.exited && !c.retiring).map((c) => c.pid);
  }

  async run(request: PipelineRequest, images: VerificationImages, deadline = Number.POSITIVE_INFINITY): Promise<VerificationOutcome> {
    for (const image of allImages(images)) {
      const verdict = checkJpegStructure(image);
      if (!verdict.ok) {
        this.opts.logger?.info({ problem: verdict.problem }, 'pipeline: image refused before decoding');
        return unreadableOutcome();
      }
    }
    const child = await this.acquire(deadline);
    const wallMs = Math.min(this.opts.budget.wallMs, deadline - Date.now());
    try {
      return await this.runOn(child, request, images, wallMs, wallMs < this.opts.budget.wallMs);
    } finally {
      this.release(child);
    }
  }

  private runOn(
    child: Child,
    request: PipelineRequest,
    images: VerificationImages,
    wallMs: number,
    shortened: boolean,
  ): Promise<VerificationOutcome> {
    const { budget, pollMs, logger } = this.opts;
    const runId = this.nextRunId++;
    const startCpu = processUsage(child.pid)?.cpuMs ?? 0;
    return new Promise<VerificationOutcome>((resolve, reject) => {
      let over: string | null = null;
      const stopFor = (what: string) => {
        if (over) return;
        over = what;
        child.kill();
      };
      const wall = setTimeout(() => stopFor('wall'), Math.max(0, wallMs));
      const poll = setInterval(() => {
        const u = processUsage(child.pid);
        if (!u) return;
        if (u.cpuMs - startCpu > budget.cpuMs) stopFor('cpu');
        else if (u.rssBytes > budget.memoryBytes) stopFor('memory');
      }, pollMs);
      child.run = {
        runId,
        settle: (r) => {
          clearTimeout(wall);
          clearInterval(poll);
          if (r.kind === 'result') resolve(r.outcome);
          else if (r.kind === 'error')
            reject(r.permanentCode ? new PermanentPipelineError(r.permanentCode, r.message) : new Error(r.message));
          else if (this.stopped) reject(new PipelineUnavailableError('pipeline stopped during the run'));
          else if (over === 'wall' && shortened) reject(new PipelineUnavailableError('no time left in the job for a full run'));
          else if (over) {
            logger?.warn({ budget: over }, 'pipeline: run over budget, stopped; images judged unreadable');
            resolve(unreadableOutcome());
          } else {
            logger?.error({ err: { message: r.message } }, 'pipeline: child died during a run');
            reject(new PermanentPipelineError(PIPELINE_CRASHED, 'The pipeline process died during the run'));
          }
        },
      };
      if (child.exited) {
        // It died between being handed over and being given the run.
        const run = child.run;
        child.run = null;
        run.settle({ kind: 'exit', message: child.fatal ?? 'pipeline child exited' });
        return;
      }
      const message: ToChild = { type: 'run', runId, request, images, hints: { alone: this.aloneIn(child) } };
      child.proc.send(message, (err) => {
        if (err) child.kill();
      });
    });
  }

  /**
   * Whether `child`'s run is the only one: no other child holds a run (or is reserved for one)
   * and none waits for a child. Its pipeline may then use cores the others would (`RunHints`).
   * Only this pool is seen: API processes sharing one machine do not see each other's runs.
   */
  private aloneIn(child: Child): boolean {
    return this.waiters.length === 0 && [...this.children].every((c) => c === child || c.exited || !c.run);
  }

  private spawn(): Child {
    const proc = fork(HOST, [this.opts.moduleUrl], {
      serialization: 'advanced',
      execArgv: childHeapFlags(this.opts.budget.memoryBytes),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...CHILD_ALLOCATOR, ...process.env },
    });
    const child = new Child(proc);
    this.children.add(child);
    void child.whenReady.then((ok) => {
      if (!ok) return;
      this.handOver(child);
      this.restSoon();
    });
    proc.once('exit', () => {
      this.children.delete(child);
      if (!child.ready && !this.stopped) {
        this.opts.logger?.error({ err: { message: child.fatal ?? 'exited' } }, 'pipeline: child failed to start');
        // Waiters keep waiting (until their deadline); try again shortly rather than in a loop.
        setTimeout(() => this.fillForWaiters(), 2_000).unref();
      } else if (!this.stopped && this.alive().length < this.target) {
        // Keep the warm pool full: a replacement loads its models before the next job needs it.
        this.spawn();
      } else this.fillForWaiters();
    });
    return child;
  }

  private fillForWaiters(): void {
    if (this.stopped) return;
    const starting = [...this.children].filter((c) => !c.ready && !c.exited).length;
    const alive = [...this.children].filter((c) => !c.retiring).length;
    const missing = Math.min(this.waiters.length - starting, this.opts.size - alive);
    for (let i = 0; i < missing; i++) this.spawn();
  }

  private handOver(child: Child): void {
    if (this.stopped || !child.idle) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      child.run = { runId: 0, settle: () => {} }; // reserved until the waiter sends its run
      waiter.resolve(child);
    }
  }

  private acquire(deadline: number): Promise<Child> {
    if (this.stopped) return Promise.reject(new PipelineUnavailableError('pipeline stopped'));
    this.wake();
    const idle = [...this.children].find((c) => c.idle);
    if (idle) {
      idle.run = { runId: 0, settle: () => {} };
      return Promise.resolve(idle);
    }
    return new Promise<Child>((resolve, reject) => {
      const waiter = {
        resolve: (c: Child) => {
          clearTimeout(timer);
          resolve(c);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new PipelineUnavailableError('no pipeline process free before the deadline'));
        },
        Math.max(0, Math.min(deadline - Date.now(), 2 ** 31 - 1)),
      );
      this.waiters.push(waiter);
      this.fillForWaiters();
    });
  }

  private release(child: Child): void {
    child.run = null;
    if (child.exited) return;
    const rss = processUsage(child.pid)?.rssBytes ?? 0;
    if (rss > this.opts.recycleRssBytes || child.retireAfterRun) {
      // Native heaps (wasm, glib) rarely shrink: a fresh child is the way memory comes back.
      child.kill();
      return;
    }
    this.handOver(child);
    this.restSoon();
  }

  /** Children neither gone nor being stopped. */
  private alive(): Child[] {
    return [...this.children].filter((c) => !c.exited && !c.retiring);
  }

  /** No run, none reserved, none waiting. */
  private quiet(): boolean {
    return this.waiters.length === 0 && [...this.children].every((c) => !c.run);
  }

  /** (Re)starts the rest timer once the pool is quiet. */
  private restSoon(): void {
    const rest = this.opts.rest;
    if (!rest || this.stopped || !this.quiet()) return;
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = setTimeout(() => this.rest(), rest.afterMs);
    this.restTimer.unref();
  }

  /** A run is wanted: back to `size` children, loading at once (the first run takes a warm one). */
  private wake(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = null;
    if (this.target >= this.opts.size) return;
    this.target = this.opts.size;
    for (let i = this.alive().length; i < this.target; i++) this.spawn();
  }

  /**
   * At rest: stop the children beyond `rest.children` (the largest first), and replace each kept
   * child that grew by a fresh one, the grown one serving until the fresh one is ready.
   */
  private rest(): void {
    const rest = this.opts.rest;
    this.restTimer = null;
    if (!rest || this.stopped || !this.quiet()) return;
    const ready = this.alive().filter((c) => c.ready);
    if (ready.length < this.alive().length) return this.restSoon(); // still starting: look again later
    this.target = Math.min(this.target, Math.max(1, rest.children));
    const bySize = ready.map((c) => ({ c, rss: processUsage(c.pid)?.rssBytes ?? 0 })).sort((a, b) => a.rss - b.rss);
    for (const { c } of bySize.slice(this.target)) c.kill();
    const growth = rest.growthBytes ?? REST_GROWTH_BYTES;
    for (const { c, rss } of bySize.slice(0, this.target)) {
      if (c.readyRss === 0 || rss <= c.readyRss + growth) continue;
      this.opts.logger?.info(
        { rssMb: Math.round(rss / 2 ** 20), readyMb: Math.round(c.readyRss / 2 ** 20) },
        'pipeline: at rest, a grown child replaced by a fresh one',
      );
      const fresh = this.spawn();
      void fresh.whenReady.then((ok) => {
        if (!ok || c.exited) return;
        if (c.run) c.retireAfterRun = true;
        else c.kill();
      });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restTimer) clearTimeout(this.restTimer);
    for (const w of this.waiters.splice(0)) w.reject(new PipelineUnavailableError('pipeline stopped'));
    const exits = [...this.children].map((c) => new Promise<void>((r) => (c.exited ? r() : c.proc.once('exit', () => r()))));
    for (const c of this.children) c.kill();
    await Promise.all(exits);
  }
}

function allImages(images: VerificationImages): Uint8Array[] {
  const list: Uint8Array[] = [images.docFront, images.selfie];
  if (images.docBack) list.push(images.docBack);
  if (images.liveness) list.push(images.liveness.anchor, ...images.liveness.steps.flatMap((s) => s.frames));
  return list;
}
