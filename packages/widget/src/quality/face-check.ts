/**
 * The local "is there a face in this selfie?" check behind the `no_face_in_selfie` hint. It uses the
 * browser's FaceDetector where one exists; elsewhere it loads a small face detector (BlazeFace via
 * @vladmandic/human, served by the API from its own npm packages) lazily, the first time a selfie
 * step is reached, so the core bundle stays small and nothing loads for documents-only use.
 * Returns null when no detector can run: then no hint is shown (the server decides in any case).
 */
interface HumanLike {
  load(): Promise<void>;
  detect(input: HTMLCanvasElement): Promise<{ face: unknown[] }>;
}

let detector: Promise<HumanLike | null> | null = null;

function humanConfig(base: string, backend: string) {
  return {
    backend,
    modelBasePath: `${base}/widget/models/`,
    debug: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { modelPath: 'blazeface.json', rotation: false, maxDetected: 1, minConfidence: 0.3, return: false },
      mesh: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
    },
  };
}

/** Starts loading the detector (idempotent); call when the selfie step begins. */
export function preloadFaceDetector(base: string): Promise<HumanLike | null> {
  detector ??= (async () => {
    try {
      const url = `${base}/widget/vendor/human.esm.js`;
      const mod = (await import(/* @vite-ignore */ url)) as { Human: new (config: object) => HumanLike };
      for (const backend of ['webgl', 'cpu']) {
        try {
          const human = new mod.Human(humanConfig(base, backend));
          await human.load();
          return human;
        } catch {
          /* try the next backend */
        }
      }
      return null;
    } catch {
      return null;
    }
  })();
  return detector;
}

export async function selfieHasFace(canvas: HTMLCanvasElement, base: string): Promise<boolean | null> {
  const Native = (globalThis as { FaceDetector?: new (o?: object) => { detect(src: CanvasImageSource): Promise<unknown[]> } }).FaceDetector;
  if (Native) {
    try {
      return (await new Native({ fastMode: true, maxDetectedFaces: 1 }).detect(canvas)).length > 0;
    } catch {
      /* not implemented on this platform: fall through */
    }
  }
  const human = await preloadFaceDetector(base);
  if (!human) return null;
  try {
    return (await human.detect(canvas)).face.length > 0;
  } catch {
    return null;
  }
}
