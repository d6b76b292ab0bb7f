import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { GUIDANCE_LINES, type Guidance } from '../guidance/advice.js';
import { frameWorker } from '../vision/vision.js';

/** Readings start at most this often (10 a second); each waits for the one before. */
const MIN_INTERVAL_MS = 100;

export interface GuidanceOptions {
  /** The live preview, when it is playing. */
  video(): HTMLVideoElement | null;
  /** False with `manual-capture`: the advice is shown, the photo is never taken by itself. */
  autoCapture(): boolean;
  /** `ready` held for `GUIDANCE_LINES.autoCaptureMs`: take the photo. */
  capture(): void;
}

/**
 * The document steps' live guidance: asks the frame worker to read the newest camera frame as
 * soon as the last reading is in (at most 10 a second), keeps the advice for the host to show,
 * and takes the photo once `ready` has held for about 0.8 s. Every pixel is read in the worker;
 * the page's main thread only passes messages.
 */
export class GuidanceController implements ReactiveController {
  /** The current advice; null while no reading has come (or the device cannot read frames). */
  advice: Guidance | null = null;
  private run = 0;
  private running = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly opts: GuidanceOptions,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop(++this.run);
  }

  stop(): void {
    if (!this.running && this.advice === null) return;
    this.running = false;
    this.run++;
    this.advice = null;
    this.host.requestUpdate();
  }

  private async loop(run: number): Promise<void> {
    const worker = await frameWorker();
    let readySince: number | null = null;
    while (worker && run === this.run) {
      const started = performance.now();
      const video = this.opts.video();
      const answer = video ? await worker.guide(video) : null;
      if (run !== this.run) return;
      if (answer) {
        if (answer.advice !== this.advice) {
          this.advice = answer.advice;
          this.host.requestUpdate();
        }
        const now = performance.now();
        readySince = answer.advice === 'ready' ? (readySince ?? now) : null;
        if (readySince !== null && now - readySince >= GUIDANCE_LINES.autoCaptureMs && this.opts.autoCapture()) {
          this.stop();
          this.opts.capture();
          return;
        }
      }
      const wait = MIN_INTERVAL_MS - (performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, video ? 0 : 200)));
    }
  }
}
