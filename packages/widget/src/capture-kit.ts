/**
 * What the capture steps need, loaded when the user presses Start (while init runs): the camera,
 * the document guidance, the API client and the verification session. The intro needs none of it.
 */
export { ApiClient } from './api/client.js';
export { CameraController, DOCUMENT_MAX_SIDE } from './controllers/camera-controller.js';
export { GuidanceController } from './controllers/guidance-controller.js';
export { VerificationSession } from './flow/session.js';
export { preloadFaceDetector, selfieHasFace } from './quality/face-check.js';
