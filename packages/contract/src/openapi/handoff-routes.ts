import { z } from 'zod';
import { SUBMIT_REASONS } from '../codes.js';
import {
  handoffCancelResponseSchema,
  handoffClaimRequestSchema,
  handoffClaimResponseSchema,
  handoffCreateRequestSchema,
  handoffCreateResponseSchema,
  handoffStatusResponseSchema,
  handoffSubmitRequestSchema,
  handoffSubmitResponseSchema,
} from '../handoff.js';
import type { RouteParam, RouteSpec } from './routes.js';

/** The routes of "continue on a phone" (decisions.md), with their examples. */

const vf = 'vf_8GqJx2LmN4pQrS7t';
const tn = 'tn_3kd9f8s7a6d5f4g3';
const rid = 'req_5f0c2a9e7b1d4c3a';
const base = 'https://verify.example.com';
const code = 'Qm4Xv7Lp1Wb8Nc3Hd6Fj0Gs5';
const phoneToken = 'ut_Hd6Fj0Gs5TaZr2k9Qm4Xv7Lp1Wb8Nc3';
const slot = (role: string) => ({
  url: `${base}/v1/verify/upload/${vf}/${role}`,
  key: `verif/${tn}/${vf}/${role}.jpg`,
  method: 'PUT' as const,
  headers: { 'X-Service-Upload-Token': phoneToken, 'Content-Type': 'image/jpeg' as const },
});

export const handoffExamples = {
  createRequest: { verificationId: vf, documentBack: true, locale: 'es' },
  createResponse: { handoffUrl: `${base}/continue/${code}`, expiresAt: 1795002700, requestId: rid },
  claimRequest: { code },
  claimResponse: {
    verificationId: vf,
    uploads: { docFront: slot('doc-front'), docBack: slot('doc-back'), selfie: slot('selfie') },
    expiresAt: 1795001800,
    options: { documentBack: true, activeLiveness: false, locale: 'es' },
    handoffSession: 'hs_Lp1Wb8Nc3Hd6Fj0Gs5TaZr2k9Qm4Xv7',
    requestId: rid,
  },
  status: { state: 'in_progress', verificationId: vf, requestId: rid },
  cancel: { state: 'expired', verificationId: vf, requestId: rid },
  submitRequest: {
    verificationId: vf,
    keys: { docFront: `verif/${tn}/${vf}/doc-front.jpg`, selfie: `verif/${tn}/${vf}/selfie.jpg` },
  },
  submitResponse: { verificationId: vf, status: 'queued', requestId: rid },
};

const uploadToken = (who: string): RouteParam => ({
  name: 'X-Service-Upload-Token',
  in: 'header',
  schema: z.string(),
  required: true,
  description: who,
});
const DESKTOP_TOKEN = uploadToken("The desktop's upload token (from init's upload slots)");
const TOKEN_REASONS = ['missing_upload_token', 'invalid_upload_token'] as const;

export const HANDOFF_ROUTES: RouteSpec[] = [
  {
    method: 'post',
    path: '/v1/verify/handoff',
    operationId: 'createHandoff',
    summary: 'A link that lets a phone continue this verification (valid until the intent expires; a new one revokes the last)',
    auth: 'upload_token',
    rateLimited: true,
    params: [DESKTOP_TOKEN],
    body: { schema: handoffCreateRequestSchema, example: handoffExamples.createRequest },
    response: { status: 200, schema: handoffCreateResponseSchema, example: handoffExamples.createResponse },
    errors: ['invalid_body', 'verification_not_found', 'rate_limited', 'backend_unavailable'],
    reasons: [...TOKEN_REASONS, 'already_submitted'],
  },
  {
    method: 'post',
    path: '/v1/verify/handoff/claim',
    operationId: 'claimHandoff',
    summary: "The phone's Start: the verification's slots under a fresh upload token, its options and a session (one claimant)",
    auth: 'none',
    rateLimited: true,
    body: { schema: handoffClaimRequestSchema, example: handoffExamples.claimRequest },
    response: { status: 200, schema: handoffClaimResponseSchema, example: handoffExamples.claimResponse },
    errors: ['invalid_body', 'handoff_in_use', 'handoff_expired', 'rate_limited', 'backend_unavailable'],
  },
  {
    method: 'get',
    path: '/v1/verify/handoff/status',
    operationId: 'handoffStatus',
    summary: "The handoff's state for the desktop: waiting, in_progress, submitted or expired",
    auth: 'upload_token',
    rateLimited: true,
    params: [DESKTOP_TOKEN],
    response: { status: 200, schema: handoffStatusResponseSchema, example: handoffExamples.status },
    errors: ['invalid_body', 'rate_limited', 'backend_unavailable'],
    reasons: TOKEN_REASONS,
  },
  {
    method: 'post',
    path: '/v1/verify/handoff/cancel',
    operationId: 'cancelHandoff',
    summary: "Revokes the verification's handoff link (the desktop's Cancel); idempotent",
    auth: 'upload_token',
    rateLimited: true,
    params: [DESKTOP_TOKEN],
    response: { status: 200, schema: handoffCancelResponseSchema, example: handoffExamples.cancel },
    errors: ['invalid_body', 'rate_limited', 'backend_unavailable'],
    reasons: TOKEN_REASONS,
  },
  {
    method: 'post',
    path: '/v1/verify/handoff/submit',
    operationId: 'submitHandoff',
    summary: "The phone's submit, with its claim's upload token (the phone holds no API key); as submit otherwise",
    auth: 'upload_token',
    rateLimited: true,
    params: [uploadToken("The upload token the phone's claim returned")],
    body: { schema: handoffSubmitRequestSchema, example: handoffExamples.submitRequest },
    response: { status: 202, schema: handoffSubmitResponseSchema, example: handoffExamples.submitResponse },
    errors: ['invalid_body', 'insufficient_credits', 'verification_not_found', 'rate_limited', 'backend_unavailable'],
    reasons: [...TOKEN_REASONS, ...SUBMIT_REASONS],
  },
  {
    method: 'get',
    path: '/continue/:code',
    operationId: 'handoffPage',
    summary: 'The phone page that runs the widget in handoff mode (strict CSP, no-referrer, no-store); opening it claims nothing',
    auth: 'none',
    rateLimited: false,
    params: [{ name: 'code', in: 'path', schema: z.string(), description: 'The code of a handoff link' }],
    response: { status: 200, contentType: 'text/html' },
    errors: [],
  },
];
