/**
 * Entry of a pipeline child process: `node child-host.js <pipeline module URL>`. It builds the
 * pipeline once, answers one run at a time, and exits when its parent goes away. An error nobody
 * handled ends the child (its state is unknown); the parent judges the run and starts a fresh one.
 */
import { PermanentPipelineError, type VerificationImages } from '../pipeline/pipeline.js';
import type { FromChild, PipelineModule, ToChild } from './protocol.js';

const send = (m: FromChild) => process.send?.(m);

/** tfjs's wasm runtime installs handlers that rethrow (exit code 7): ours replace them. */
function ownFatalHandlers(): void {
  process.removeAllListeners('uncaughtException');
  process.removeAllListeners('unhandledRejection');
  const fatal = (err: unknown) => {
    send({ type: 'fatal', message: err instanceof Error ? err.message : String(err) });
    process.exit(70);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
}

/** IPC turns Buffers into Uint8Arrays: sharp and the decoders want Buffers back. */
const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
function buffers(images: VerificationImages): VerificationImages {
  return {
    docFront: asBuffer(images.docFront),
    docBack: images.docBack ? asBuffer(images.docBack) : null,
    selfie: asBuffer(images.selfie),
    liveness: images.liveness
      ? {
          anchor: asBuffer(images.liveness.anchor),
          steps: images.liveness.steps.map((s) => ({ ...s, frames: s.frames.map(asBuffer) })),
        }
      : null,
  };
}

async function main(): Promise<void> {
  ownFatalHandlers();
  process.on('disconnect', () => process.exit(0));
  const moduleUrl = process.argv[2];
  if (!moduleUrl) throw new Error('pipeline module URL missing');
  const mod = (await import(moduleUrl)) as PipelineModule;
  const pipeline = await mod.createPipeline();
  ownFatalHandlers(); // again: loading the models may have installed theirs
  process.on('message', (m: ToChild) => {
    if (m.type !== 'run') return;
    pipeline.run(m.request, buffers(m.images), m.hints).then(
      (outcome) => send({ type: 'result', runId: m.runId, outcome }),
      (err: unknown) =>
        send({
          type: 'error',
          runId: m.runId,
          message: err instanceof Error ? err.message : String(err),
          ...(err instanceof PermanentPipelineError ? { permanentCode: err.code } : {}),
        }),
    );
  });
  send({ type: 'ready' });
}

main().catch((err: unknown) => {
  send({ type: 'fatal', message: err instanceof Error ? err.message : String(err) });
  process.exit(71);
});
