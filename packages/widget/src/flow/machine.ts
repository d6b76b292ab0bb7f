import type { CaptureRole, WidgetErrorDetail } from '@service/contract';

/**
 * The widget's whole flow as one explicit state machine: a pure reducer, unit tested, that the
 * element only renders. Steps are the `data-step` values of the QA surface.
 */
export type Step =
  'intro' | 'document-front' | 'document-back' | 'selfie' | 'liveness' | 'handoff' | 'review' | 'uploading' | 'done' | 'error';
export type { CaptureRole };

export interface Capture {
  blob: Blob;
  url: string;
  width: number;
  height: number;
  /** Local hints shown on review (never dispatched as events). */
  hints: ('blurry_image' | 'no_face_in_selfie')[];
  /** False while a background check (the selfie's face check) is still running. */
  checked: boolean;
}

export interface FlowOptions {
  documentBack: boolean;
  activeLiveness: boolean;
}

export interface FlowState {
  step: Step;
  options: FlowOptions;
  captures: Partial<Record<CaptureRole, Capture>>;
  /** The photo just taken on a capture step, waiting for confirm or retake. */
  pending: Capture | null;
  /** Set while retaking from review: go back there after confirming. */
  returnToReview: boolean;
  /** Upload progress 0-1 while `uploading`. */
  progress: number;
  /** True between pressing start and init's answer (the intro shows that it is connecting). */
  starting: boolean;
  /** True once every liveness frame was uploaded to the current verification. */
  livenessDone: boolean;
  result: { verificationId: string; status: 'queued' | 'processing' | 'completed' } | null;
  error: WidgetErrorDetail | null;
  /** The user chose to continue on a phone: "Try again" after a failure asks for a new link. */
  viaHandoff: boolean;
}

export type FlowEvent =
  /** The user pressed start: init runs. */
  | { type: 'STARTING' }
  /** init answered: the first capture step. */
  | { type: 'START' }
  | { type: 'CAPTURED'; capture: Capture }
  | { type: 'CONFIRM' }
  /** A background check finished for the photo with this url (the face check), with its hints. */
  | { type: 'CHECKED'; url: string; hints: ('blurry_image' | 'no_face_in_selfie')[] }
  | { type: 'RETAKE'; role?: CaptureRole }
  | { type: 'LIVENESS_DONE' }
  /** The verification was re-created (expired slots): its liveness frames must be taken again. */
  | { type: 'LIVENESS_LOST' }
  | { type: 'SUBMIT' }
  | { type: 'PROGRESS'; fraction: number }
  | { type: 'COMPLETED'; verificationId: string; status: 'queued' | 'processing' | 'completed' }
  | { type: 'FAILED'; error: WidgetErrorDetail }
  | { type: 'CANCEL' }
  | { type: 'RESTART' }
  /** Continue on a phone: the desktop shows the link (from the intro once init answered, or a camera error). */
  | { type: 'HANDOFF' }
  /** The phone submitted: the desktop is done as if it had submitted. */
  | { type: 'HANDOFF_COMPLETED'; verificationId: string; status: 'queued' | 'processing' | 'completed' };

export const CAPTURE_STEP_ROLE: Partial<Record<Step, CaptureRole>> = {
  'document-front': 'docFront',
  'document-back': 'docBack',
  selfie: 'selfie',
};
export const ROLE_OF_STEP: Record<CaptureRole, Step> = { docFront: 'document-front', docBack: 'document-back', selfie: 'selfie' };

export function initialState(options: FlowOptions): FlowState {
  return {
    step: 'intro',
    options,
    captures: {},
    pending: null,
    returnToReview: false,
    progress: 0,
    starting: false,
    livenessDone: false,
    result: null,
    error: null,
    viaHandoff: false,
  };
}

/** The capture steps in order for these options. */
export function captureSteps(options: FlowOptions): Step[] {
  return ['document-front', ...(options.documentBack ? (['document-back'] as Step[]) : []), 'selfie'];
}

function afterCapture(state: FlowState, step: Step): Step {
  if (state.returnToReview) return 'review';
  const steps = captureSteps(state.options);
  const next = steps[steps.indexOf(step) + 1];
  if (next) return next;
  return state.options.activeLiveness && !state.livenessDone ? 'liveness' : 'review';
}

/** Errors of the camera, from which a desktop with `cross-device` still offers the phone. */
export const CAMERA_ERRORS: readonly string[] = ['camera_denied', 'camera_unavailable'];

/** Where "Try again" resumes with the captures kept: the first thing still missing, else review. */
export function resumeStep(state: FlowState): Step {
  const missing = captureSteps(state.options).find((s) => !state.captures[CAPTURE_STEP_ROLE[s]!]);
  if (missing) return missing;
  return state.options.activeLiveness && !state.livenessDone ? 'liveness' : 'review';
}

const TERMINAL: Step[] = ['done', 'error'];

export function transition(state: FlowState, event: FlowEvent): FlowState {
  switch (event.type) {
    case 'STARTING':
      return state.step === 'intro' && !state.starting ? { ...state, starting: true } : state;
    case 'START':
      return state.step === 'intro' ? { ...state, step: resumeStep(state), starting: false } : state;
    case 'CAPTURED': {
      if (!CAPTURE_STEP_ROLE[state.step]) return state;
      return { ...state, pending: event.capture };
    }
    case 'CHECKED': {
      const add = (c: Capture): Capture =>
        c.url === event.url ? { ...c, checked: true, hints: [...new Set([...c.hints, ...event.hints])] } : c;
      const pending = state.pending ? add(state.pending) : null;
      const captures = Object.fromEntries(Object.entries(state.captures).map(([role, c]) => [role, add(c)])) as FlowState['captures'];
      return { ...state, pending, captures };
    }
    case 'CONFIRM': {
      const role = CAPTURE_STEP_ROLE[state.step];
      if (!role || !state.pending) return state;
      return {
        ...state,
        captures: { ...state.captures, [role]: state.pending },
        pending: null,
        step: afterCapture(state, state.step),
        returnToReview: false,
      };
    }
    case 'RETAKE': {
      if (CAPTURE_STEP_ROLE[state.step] && state.pending && !event.role) return { ...state, pending: null };
      if (state.step === 'review' && event.role && state.captures[event.role]) {
        return { ...state, step: ROLE_OF_STEP[event.role], pending: null, returnToReview: true };
      }
      return state;
    }
    case 'LIVENESS_DONE':
      return state.step === 'liveness' ? { ...state, step: 'review', livenessDone: true } : state;
    case 'LIVENESS_LOST':
      return { ...state, livenessDone: false };
    case 'SUBMIT': {
      if (state.step !== 'review') return state;
      const needed = captureSteps(state.options).map((s) => CAPTURE_STEP_ROLE[s]!);
      if (!needed.every((r) => state.captures[r])) return state;
      if (state.options.activeLiveness && !state.livenessDone) return state;
      return { ...state, step: 'uploading', progress: 0 };
    }
    case 'PROGRESS':
      return state.step === 'uploading' ? { ...state, progress: Math.max(state.progress, Math.min(1, event.fraction)) } : state;
    case 'COMPLETED':
      return state.step === 'uploading'
        ? { ...state, step: 'done', progress: 1, result: { verificationId: event.verificationId, status: event.status } }
        : state;
    case 'FAILED':
      return TERMINAL.includes(state.step) ? state : { ...state, step: 'error', pending: null, starting: false, error: event.error };
    case 'CANCEL':
      // Also from the error screen (abandoning after a failure); never after done or once cancelled.
      if (state.step === 'done' || state.error?.code === 'user_cancelled') return state;
      return {
        ...state,
        step: 'error',
        pending: null,
        starting: false,
        error: { code: 'user_cancelled', message: 'The user cancelled the verification' },
      };
    case 'HANDOFF': {
      const fromCamera = state.step === 'error' && CAMERA_ERRORS.includes(state.error?.code ?? '');
      if (!(state.step === 'intro' && state.starting) && !fromCamera && !CAPTURE_STEP_ROLE[state.step]) return state;
      return { ...state, step: 'handoff', starting: false, pending: null, error: null, viaHandoff: true };
    }
    case 'HANDOFF_COMPLETED':
      return state.step === 'handoff'
        ? { ...state, step: 'done', progress: 1, result: { verificationId: event.verificationId, status: event.status } }
        : state;
    case 'RESTART': {
      if (state.step !== 'error') return state;
      // After a cancel the user starts afresh; after a failure the captures are kept.
      const kept = state.error?.code === 'user_cancelled' ? {} : state.captures;
      // After a phone link failed (it expired): a new init, then a new link.
      if (state.viaHandoff && state.error?.code !== 'user_cancelled')
        return { ...initialState(state.options), starting: true, viaHandoff: true };
      if (Object.keys(kept).length === 0) return initialState(state.options);
      return { ...state, step: 'intro', captures: kept, pending: null, returnToReview: false, progress: 0, starting: true, error: null };
    }
  }
}
