import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The fake camera's file: rewritten between getUserMedia sessions to change what it films. */
export const CAMERA_FILE = path.join(E2E_ROOT, 'test-results', 'fake-camera.y4m');
export const SCREENS = path.join(E2E_ROOT, 'test-results', 'screens');
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
export const CLIENT_IP_HEADER = 'x-e2e-client';

/** Flags for Debian Chromium on a closed network (see the toolchain notes). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface E2eState {
  api: string;
  tenant: { tenantId: string; keys: { publishable: string; secret: string; publishableTest: string; secretTest: string } };
  poorTenant: { keys: { publishableTest: string } };
  /** CA, server key and certificate for HTTPS webhook receivers on loopback (the API trusts the CA). */
  tlsDir: string;
}

export function state(): E2eState {
  return JSON.parse(process.env.E2E_STATE!) as E2eState;
}
