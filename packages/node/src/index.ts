export {
  ServiceClient,
  Verifications,
  webhooks,
  type CallInfo,
  type RequestOptions,
  type ServiceClientOptions,
  type WaitOptions,
} from './client.js';
export * from './errors.js';
export {
  verify as verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
  type WebhookVerifyOptions,
} from './webhooks.js';
export type {
  HandoffCancelResponse,
  HandoffCreateResponse,
  HandoffStatusResponse,
  InitRequest,
  InitResponse,
  ResultRecord,
  SubmitRequest,
  SubmitResponse,
  UploadResponse,
  UploadSlot,
  WebhookEvent,
} from '@service/contract';
