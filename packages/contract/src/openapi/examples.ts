/** One example per body of the OpenAPI documents; each is checked against its schema in the tests. */

const vf = 'vf_8GqJx2LmN4pQrS7t';
const tn = 'tn_3kd9f8s7a6d5f4g3';
const rid = 'req_5f0c2a9e7b1d4c3a';
const base = 'https://verify.example.com';
const token = 'ut_Zr2k9Qm4Xv7Lp1Wb8Nc3Hd6Fj0Gs5Ta';
const slot = (role: string) => ({
  url: `${base}/v1/verify/upload/${vf}/${role}`,
  key: `verif/${tn}/${vf}/${role}.jpg`,
  method: 'PUT' as const,
  headers: { 'X-Service-Upload-Token': token, 'Content-Type': 'image/jpeg' as const },
});
const scores = { document_ocr: 0.97, name_match: 1, face_match: 0.91, image_quality: 0.88, liveness: null };

export const health = { status: 'ok', requestId: rid };
export const initRequest = {
  userRef: 'customer-1842',
  country: 'ES',
  documentType: 'dni',
  submittedFullName: 'Ana García',
  activeLiveness: false,
};
export const initResponse = {
  verificationId: vf,
  uploads: { docFront: slot('doc-front'), docBack: slot('doc-back'), selfie: slot('selfie') },
  expiresAt: 1795000000,
  requestId: rid,
};
export const uploadResponse = { ok: true, key: `verif/${tn}/${vf}/doc-front.jpg`, requestId: rid };
export const challengeBeacon = {
  verificationId: vf,
  step: 1,
  totalSteps: 4,
  pose: 'turn_left',
  burst: 4,
  roles: ['liveness-1-1', 'liveness-1-2', 'liveness-1-3', 'liveness-1-4'],
  nonce: 'n_4c1d9e',
  expiresAt: 1795000020,
  done: false,
  requestId: rid,
};
export const submitRequest = {
  verificationId: vf,
  keys: { docFront: `verif/${tn}/${vf}/doc-front.jpg`, selfie: `verif/${tn}/${vf}/selfie.jpg` },
};
export const submitResponse = { verificationId: vf, status: 'queued', requestId: rid };
export const resultRecord = {
  verificationId: vf,
  status: 'completed',
  verdict: 'approved',
  mode: 'live',
  createdAt: '2026-11-23T10:00:00.000Z',
  completedAt: '2026-11-23T10:00:04.000Z',
  scores,
  reasons: [],
  review: null,
  requestId: rid,
};
export const redactResponse = { verificationId: vf, redactedAt: '2026-11-24T09:30:00.000Z', requestId: rid };
export const webhookEvent = {
  id: 'evt_9f8e7d6c5b4a',
  type: 'verification.approved',
  createdAt: '2026-11-23T10:00:04.000Z',
  verificationId: vf,
  verdict: 'approved',
  mode: 'live',
  userRef: 'customer-1842',
  scores,
  fieldsExtracted: {
    fullName: 'ANA GARCIA',
    documentNumber: '12345678Z',
    dateOfBirth: '1990-01-31',
    expiryDate: '2030-05-01',
    nationality: 'ESP',
  },
};
export const createTenantRequest = { name: 'Acme Rentals', credits: 500 };
export const createdTenant = {
  tenantId: tn,
  name: 'Acme Rentals',
  credits: 500,
  keys: {
    publishable: 'qv_pub_4kT9sQ2mX7vL1pW8bN3c',
    secret: 'qv_sec_Hd6Fj0Gs5Ta2Zr9kQm4X',
    publishableTest: 'qv_pubt_v7Lp1Wb8Nc3Hd6Fj0G',
    secretTest: 'qv_sect_s5Ta2Zr9kQm4Xv7Lp1W',
  },
  requestId: rid,
};
export const tenant = {
  tenantId: tn,
  name: 'Acme Rentals',
  credits: 500,
  webhook: { url: 'https://acme.example.com/hooks/verify' },
  requestId: rid,
};
export const patchTenantRequest = {
  credits: 1000,
  webhook: { url: 'https://acme.example.com/hooks/verify', secret: 'whsec_0123456789abcdefghijklmn' },
};
const keyView = {
  keyId: 'key_7h6g5f4d3s2a',
  tenantId: tn,
  family: 'publishable',
  mode: 'live',
  prefix: 'qv_pub_',
  lastFour: 'x7Qa',
  allowedOrigins: ['shop.acme.example.com'],
  revoked: false,
};
export const key = { ...keyView, requestId: rid };
export const keyList = { keys: [keyView], requestId: rid };
export const createKeyRequest = { family: 'publishable', mode: 'live', allowedOrigins: ['shop.acme.example.com'] };
export const createdKey = {
  keyId: 'key_7h6g5f4d3s2a',
  key: 'qv_pub_4kT9sQ2mX7vL1pW8bN3c',
  family: 'publishable',
  mode: 'live',
  allowedOrigins: ['shop.acme.example.com'],
  requestId: rid,
};
export const patchKeyRequest = { allowedOrigins: ['shop.acme.example.com', 'acme.example.com'] };
export const reviewRequest = { verdict: 'approved', note: 'Document checked by hand' };
export const review = {
  verificationId: vf,
  verdict: 'approved',
  review: { decision: 'approved', decidedAt: '2026-11-23T11:00:00.000Z' },
  eventId: 'evt_1a2b3c4d5e6f',
  requestId: rid,
};
export const deliveryList = {
  deliveries: [
    {
      id: 'whd_1a2b3c',
      eventId: 'evt_9f8e7d6c5b4a',
      type: 'verification.approved',
      verificationId: vf,
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      createdAt: '2026-11-23T10:00:04.000Z',
      attemptLog: [{ attempt: 1, at: '2026-11-23T10:00:04.100Z', statusCode: 200, error: null, latencyMs: 42 }],
    },
  ],
  requestId: rid,
};
export const requeuedDelivery = { id: 'whd_1a2b3c', status: 'pending', requeued: true, requestId: rid };
export const requeueFailedRequest = { since: '2026-11-23T00:00:00Z' };
export const requeueFailed = { requeued: 3, requestId: rid };
export const tenantList = {
  data: [{ tenantId: tn, name: 'Acme Rentals', credits: 500, createdAt: '2026-11-23T09:00:00.000Z', webhook: null }],
  nextCursor: null,
  requestId: rid,
};
export const webhookTest = { statusCode: 200, error: null, latencyMs: 48, eventId: 'evt_0a1b2c3d4e5f', delivered: true, requestId: rid };

export const readiness = { status: 'ready', checks: { database: 'ok', queue: 'ok', blobStore: 'ok' }, requestId: 'req_0123456789abcdef' };
export const createUserRequest = { email: 'reviewer@acme.example', role: 'reviewer' };
export const createdUser = {
  userId: 'usr_0123456789abcdef',
  email: 'reviewer@acme.example',
  role: 'reviewer',
  inviteUrl: 'https://verify.acme.example/dashboard/invite#tok_0123456789abcdef',
  requestId: 'req_0123456789abcdef',
};
