import type { FailureCode } from '@service/contract';
import type { PipelineRequest, RunHints, VerificationImages, VerificationOutcome } from '../pipeline/pipeline.js';

/** Messages between the API process and a pipeline child (IPC, structured clone). */
export type ToChild = { type: 'run'; runId: number; request: PipelineRequest; images: VerificationImages; hints: RunHints };

export type FromChild =
  | { type: 'ready' }
  | { type: 'result'; runId: number; outcome: VerificationOutcome }
  /** `permanentCode`: the run threw a PermanentPipelineError with this code. */
  | { type: 'error'; runId: number; message: string; permanentCode?: FailureCode }
  /** The child caught an error nobody handled and is about to exit. */
  | { type: 'fatal'; message: string };

/** A pipeline module for the child: its default export builds the pipeline once per child. */
export interface PipelineModule {
  createPipeline(): Promise<{
    run(request: PipelineRequest, images: VerificationImages, hints?: RunHints): Promise<VerificationOutcome>;
  }>;
}
