import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { LIMITS } from '@service/contract';
import { FlowError } from '../api/errors.js';
import { blurHint } from '../quality/local-check.js';
import { frameWorker } from '../vision/vision.js';

export type Facing = 'environment' | 'user';

/** Longest side of a selfie or liveness photo: enough for the face models, far under the 2 MiB upload cap. */
const MAX_SIDE = 1600;
/** A document photo keeps the camera's full size (the pipeline reads its print), within the pipeline's decode limit. */
export const DOCUMENT_MAX_SIDE = 4096;
/** JPEG quality is lowered, if need be, until the photo fits the upload cap (a little under it). */
const MAX_BYTES = LIMITS.imageMaxBytes - 16 * 1024;

/**
 * Owns the camera: opens the rear camera for documents and the front one for the selfie (when the
 * device has both), asks for 1920 x 1080 where the camera offers it, and stops every track whenever the
 * preview is not shown. Errors become `camera_denied` or `camera_unavailable`.
 */
export class CameraController implements ReactiveController {
  stream: MediaStream | null = null;
  facing: Facing | null = null;
  private video: HTMLVideoElement | null = null;
  private opening: Promise<void> | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Binds the `<video part="preview">` that shows the stream. */
  attach(video: HTMLVideoElement | null): void {
    if (video === this.video) return;
    this.video = video;
    if (video && this.stream && video.srcObject !== this.stream) {
      video.srcObject = this.stream;
      void video.play().catch(() => {});
    }
  }

  async start(facing: Facing): Promise<void> {
    if (this.stream && this.facing === facing) return;
    if (this.opening) await this.opening.catch(() => {});
    this.stop();
    this.opening = this.open(facing);
    try {
      await this.opening;
    } finally {
      this.opening = null;
    }
  }

  private async open(facing: Facing): Promise<void> {
    if (!navigator.mediaDevices?.getUserMedia) {
      throw new FlowError({ code: 'camera_unavailable', message: 'No camera API: the page must be served over HTTPS (or localhost)' });
    }
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: facing }, width: { ideal: 1920 }, height: { ideal: 1080 } },
      });
    } catch (err) {
      const name = (err as DOMException)?.name;
      if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') {
        throw new FlowError({ code: 'camera_denied', message: `Camera permission denied (${name})` });
      }
      throw new FlowError({ code: 'camera_unavailable', message: `Camera could not be opened (${name ?? 'unknown error'})` });
    }
    this.facing = facing;
    // The frame worker reads this camera's frames itself, off the main thread.
    const track = this.stream.getVideoTracks()[0];
    if (track) {
      void frameWorker().then((worker) => {
        if (track.readyState === 'live' && this.stream?.getVideoTracks()[0] === track) worker?.attach(track);
      });
    }
    if (this.video) {
      this.video.srcObject = this.stream;
      await this.video.play().catch(() => {});
    }
    this.host.requestUpdate();
  }

  /** Stops every track: the camera light goes off whenever the preview is not on screen. */
  stop(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.facing = null;
    if (this.video) this.video.srcObject = null;
  }

  /** The live `<video>`, when the preview is on screen and playing. */
  get liveVideo(): HTMLVideoElement | null {
    return this.video && this.stream && this.video.readyState >= 2 ? this.video : null;
  }

  /**
   * The current frame as a JPEG (unmirrored), scaled to at most `maxSide` px on its longest side,
   * with the blur hint when asked. Scaling, the blur measure and encoding run in the frame worker;
   * on the main thread only where no worker can start.
   */
  async capture(maxSide = MAX_SIDE, blur = false): Promise<{ blob: Blob; width: number; height: number; blurry: boolean }> {
    const video = this.video;
    if (!video || !this.stream)
      throw new FlowError({ code: 'camera_unavailable', message: 'The camera stopped before the photo was taken' });
    if (video.readyState < 2 || !video.videoWidth) {
      await new Promise<void>((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true }));
    }
    const encoded = await (await frameWorker())?.encode(video, maxSide, blur, MAX_BYTES);
    if (encoded) return encoded;
    const scale = Math.min(1, maxSide / Math.max(video.videoWidth, video.videoHeight));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (b) => (b ? resolve(b) : reject(new FlowError({ code: 'camera_unavailable', message: 'The frame could not be encoded' }))),
        'image/jpeg',
        0.9,
      ),
    );
    return { blob, width: canvas.width, height: canvas.height, blurry: blur && blurHint(canvas) !== null };
  }
}
