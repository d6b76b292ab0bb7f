import type { Page } from '@playwright/test';
import { sampleFrames } from './sample-person.js';

/** What the fake camera films: named still frames (JPEG or PNG bytes). `front` is required. */
export interface CameraFrames {
  /** A frontal face: the selfie, the liveness anchor and the "back to centre" frames. */
  front: Buffer;
  /** The ID document, shown on the document steps. */
  document?: Buffer;
  /** Head poses for the liveness beacons, as the camera sees them (unmirrored). */
  turn_left?: Buffer;
  turn_right?: Buffer;
  look_up?: Buffer;
  look_down?: Buffer;
}

/**
 * How the head answers the widget's liveness prompts: `follow` shows the asked pose while a beacon
 * is on screen; `wrong-way` shows the opposite pose; `still` keeps the frontal frame (a photo held
 * to the camera).
 */
export type HeadBehaviour = 'follow' | 'wrong-way' | 'still';

export interface FakeCameraOptions {
  /** What the camera films; default the sample person (`sampleFrames()`). */
  frames?: CameraFrames;
  head?: HeadBehaviour;
  /** Deny the camera when the widget reaches this step (`data-step`), e.g. `liveness`. */
  denyAt?: string;
  width?: number;
  height?: number;
  /**
   * The document's width as a share of the frame, drawn on a desk (so the widget's guidance finds
   * its edges; 0.3 is a card held too far, `move_closer`). Default: the document fills the frame.
   */
  documentScale?: number;
}

const dataUrl = (b: Buffer) => `data:${b[0] === 0x89 ? 'image/png' : 'image/jpeg'};base64,${b.toString('base64')}`;

/**
 * Replaces `getUserMedia` in every page of this Playwright page's context with a canvas
 * `captureStream`, whose picture follows the widget's QA surface: the document on the document
 * steps, the frontal face on the selfie, and during liveness the pose the current beacon asks for
 * (`data-pose`), as `head` says. Call before `page.goto`. Switch by hand with `showFrame`.
 */
export async function installFakeCamera(page: Page, options: FakeCameraOptions = {}): Promise<void> {
  const frames = Object.fromEntries(
    Object.entries(options.frames ?? sampleFrames())
      .filter((e): e is [string, Buffer] => e[1] !== undefined)
      .map(([k, v]) => [k, dataUrl(v)]),
  );
  await page.addInitScript(
    ({ frames, head, denyAt, width, height, documentScale }) => {
      const opposite: Record<string, string> = {
        turn_left: 'turn_right',
        turn_right: 'turn_left',
        look_up: 'look_down',
        look_down: 'look_up',
      };
      const images: Record<string, HTMLImageElement> = {};
      for (const [name, url] of Object.entries(frames)) {
        const img = new Image();
        img.src = url;
        images[name] = img;
      }
      const state = { manual: null as string | null, shown: '' };
      (window as unknown as { __fakeCamera: unknown }).__fakeCamera = {
        show: (name: string | null) => (state.manual = name),
        get shown() {
          return state.shown;
        },
      };
      /** The frame the widget's current screen calls for. */
      const wanted = (): string => {
        if (state.manual) return state.manual;
        const host = document.querySelector('[data-step]') as HTMLElement | null;
        const step = host?.dataset['step'];
        if (step === 'document-front' || step === 'document-back') return images['document'] ? 'document' : 'front';
        const pose = host?.dataset['pose'];
        if (step === 'liveness' && pose && head !== 'still') {
          const name = head === 'wrong-way' ? opposite[pose]! : pose;
          if (images[name]) return name;
        }
        return 'front';
      };
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d')!;
      let stream: MediaStream | null = null;
      const draw = () => {
        const name = wanted();
        const img = images[name];
        // Painted every tick: Chromium sends a canvas's frame only when it was drawn since the last
        // one, and a camera delivers frames whether the scene moves or not.
        if (img?.complete && img.naturalWidth && name === 'document' && documentScale) {
          // The document on a desk, this share of the frame wide.
          ctx.fillStyle = '#5a4a3c';
          ctx.fillRect(0, 0, width, height);
          const w = width * documentScale;
          const h = (img.naturalHeight / img.naturalWidth) * w;
          ctx.drawImage(img, (width - w) / 2, (height - h) / 2, w, h);
          state.shown = name;
        } else if (img?.complete && img.naturalWidth) {
          // Cover the canvas, as a camera would frame it.
          const s = Math.max(width / img.naturalWidth, height / img.naturalHeight);
          const w = img.naturalWidth * s;
          const h = img.naturalHeight * s;
          ctx.drawImage(img, (width - w) / 2, (height - h) / 2, w, h);
          state.shown = name;
        }
        const track = stream?.getVideoTracks()[0] as (MediaStreamTrack & { requestFrame?: () => void }) | undefined;
        track?.requestFrame?.();
      };
      // 30 frames a second, as a webcam gives them (the preview is measured against 15).
      setInterval(draw, 33);
      const fake = async (constraints?: MediaStreamConstraints): Promise<MediaStream> => {
        const step = (document.querySelector('[data-step]') as HTMLElement | null)?.dataset['step'];
        if (denyAt && step === denyAt) throw new DOMException('Permission denied', 'NotAllowedError');
        if (!constraints?.video) throw new DOMException('No audio here', 'NotFoundError');
        stream = canvas.captureStream(0);
        state.shown = '';
        draw();
        return stream;
      };
      Object.defineProperty(navigator, 'mediaDevices', {
        value: { getUserMedia: fake, enumerateDevices: async () => [] },
        configurable: true,
      });
    },
    {
      frames,
      head: options.head ?? 'follow',
      denyAt: options.denyAt ?? null,
      width: options.width ?? 1280,
      height: options.height ?? 720,
      documentScale: options.documentScale ?? null,
    },
  );
}

/** Forces one frame (by name) until `showFrame(page, null)` gives control back to the prompts. */
export async function showFrame(page: Page, name: keyof CameraFrames | null): Promise<void> {
  await page.evaluate((n) => (window as unknown as { __fakeCamera: { show(n: string | null): void } }).__fakeCamera.show(n), name);
}
