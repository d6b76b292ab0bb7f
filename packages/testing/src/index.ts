export { installFakeCamera, showFrame, type CameraFrames, type FakeCameraOptions, type HeadBehaviour } from './fake-camera.js';
export { sampleFrames, SAMPLE_PERSON } from './sample-person.js';
export { completeVerification, FORCE_VERDICT, type CompleteDetail } from './verification.js';
export {
  DOCUMENT_GUIDANCE_STATES,
  guidanceOf,
  waitForAutomaticCapture,
  waitForGuidance,
  type DocumentGuidance,
} from './capture-guidance.js';
export { continueOnPhone, handoffLink, handoffState } from './handoff.js';
