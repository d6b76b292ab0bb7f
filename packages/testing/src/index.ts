export { installFakeCamera, showFrame, type CameraFrames, type FakeCameraOptions, type HeadBehaviour } from './fake-camera.js';
export { sampleFrames, SAMPLE_PERSON } from './sample-person.js';
export { completeVerification, FORCE_VERDICT, type CompleteDetail } from './verification.js';
