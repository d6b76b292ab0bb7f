import { describe, expect, it } from 'vitest';
import type { InitResponse, UploadSlot } from '@service/contract';
import { AbortedError, type ApiClient } from '../src/api/client.js';
import { FlowError } from '../src/api/errors.js';
import { VerificationSession } from '../src/flow/session.js';

const slot = (role: string): UploadSlot => ({
  url: `https://api.test/v1/verify/upload/vf_x/${role}`,
  key: `verif/t/vf_x/${role}.jpg`,
  method: 'PUT',
  headers: { 'X-Service-Upload-Token': 't', 'Content-Type': 'image/jpeg' },
});
const initResponse = (id: string, expiresAt: number): InitResponse => ({
  verificationId: id,
  uploads: { docFront: slot('doc-front'), docBack: slot('doc-back'), selfie: slot('selfie') },
  expiresAt,
  requestId: 'r',
});

/** A scripted API: uploads wait until released, each call is logged, signals are kept. */
function fakeApi(opts: { expiresAt?: () => number } = {}) {
  const log: string[] = [];
  const pending: { role: string; signal?: AbortSignal; done: () => void; fail: (e: unknown) => void }[] = [];
  let inits = 0;
  const api = {
    init: async () => {
      inits++;
      log.push(`init`);
      return initResponse(`vf_${inits}`, opts.expiresAt?.() ?? 2_000_000_000);
    },
    upload: (s: UploadSlot, _blob: Blob, _p: unknown, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const role = s.url.split('/').pop()!;
        log.push(`upload ${role}`);
        signal?.addEventListener('abort', () => reject(new AbortedError()));
        pending.push({ role, signal, done: resolve, fail: reject });
      }),
    submit: async (id: string, keys: object) => {
      log.push(`submit ${id} ${Object.keys(keys).sort().join(',')}`);
      return { verificationId: id, status: 'queued' as const };
    },
  };
  return { api: api as unknown as ApiClient, log, pending };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('VerificationSession', () => {
  it('uploads each confirmed capture at once; submit waits for the last upload', async () => {
    const { api, log, pending } = fakeApi();
    const failures: unknown[] = [];
    const s = new VerificationSession(api, {}, { onUploadFailed: (e) => failures.push(e) });
    await s.start();
    s.put('docFront', new Blob(['front']));
    s.put('selfie', new Blob(['selfie']));
    expect(log).toEqual(['init', 'upload doc-front', 'upload selfie']);
    const submitted = s.submit();
    await tick();
    expect(log).not.toContain('submit vf_1 docFront,selfie');
    pending.forEach((p) => p.done());
    expect(await submitted).toEqual({ verificationId: 'vf_1', status: 'queued' });
    expect(log.at(-1)).toBe('submit vf_1 docFront,selfie');
    expect(failures).toEqual([]);
  });

  it('a retake replaces the slot: the earlier upload is aborted and not reported as a failure', async () => {
    const { api, log, pending } = fakeApi();
    const failures: unknown[] = [];
    const s = new VerificationSession(api, {}, { onUploadFailed: (e) => failures.push(e) });
    await s.start();
    s.put('docFront', new Blob(['one']));
    s.put('docFront', new Blob(['two']));
    expect(pending[0]!.signal!.aborted).toBe(true);
    expect(pending[1]!.signal!.aborted).toBe(false);
    await tick();
    expect(failures).toEqual([]);
    expect(log).toEqual(['init', 'upload doc-front', 'upload doc-front']);
  });

  it('a background upload that fails for good is reported once', async () => {
    const { api, pending } = fakeApi();
    const failures: unknown[] = [];
    const s = new VerificationSession(api, {}, { onUploadFailed: (e) => failures.push(e) });
    await s.start();
    s.put('docFront', new Blob(['x']));
    const err = new FlowError({ code: 'upload_failed', message: 'x' });
    pending[0]!.fail(err);
    await tick();
    expect(failures).toEqual([err]);
  });

  it('abort (Cancel) aborts every request in flight', async () => {
    const { api, pending } = fakeApi();
    const s = new VerificationSession(api, {}, { onUploadFailed: () => {} });
    await s.start();
    s.put('docFront', new Blob(['x']));
    s.put('selfie', new Blob(['y']));
    s.abort();
    expect(pending.every((p) => p.signal!.aborted)).toBe(true);
    await expect(s.submit()).rejects.toBeInstanceOf(AbortedError);
  });

  it('expired slots: init again and re-upload every held capture before submit', async () => {
    let now = 1_000;
    const { api, log, pending } = fakeApi({ expiresAt: () => now + 900 });
    const s = new VerificationSession(api, {}, { onUploadFailed: () => {} }, () => now);
    await s.start();
    s.put('docFront', new Blob(['f']));
    s.put('selfie', new Blob(['s']));
    pending.forEach((p) => p.done());
    await tick();
    now += 900;
    const submitted = s.submit();
    await tick();
    await tick();
    pending.slice(2).forEach((p) => p.done());
    expect((await submitted).verificationId).toBe('vf_2');
    expect(log).toEqual([
      'init',
      'upload doc-front',
      'upload selfie',
      'init',
      'upload doc-front',
      'upload selfie',
      'submit vf_2 docFront,selfie',
    ]);
  });
});
