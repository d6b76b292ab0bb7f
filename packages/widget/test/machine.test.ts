import { describe, expect, it } from 'vitest';
import { captureSteps, initialState, transition, type Capture, type FlowEvent, type FlowState } from '../src/flow/machine.js';

const shot = (name: string): Capture => ({
  blob: new Blob([name]),
  url: `blob:${name}`,
  width: 10,
  height: 10,
  hints: [],
  checked: name !== 's',
});
const run = (state: FlowState, ...events: FlowEvent[]) => events.reduce(transition, state);
const take = (name: string): FlowEvent[] => [{ type: 'CAPTURED', capture: shot(name) }, { type: 'CONFIRM' }];

describe('flow state machine', () => {
  it('intro -> document-front -> selfie -> review -> uploading -> done', () => {
    let s = initialState({ documentBack: false, activeLiveness: false });
    expect(s.step).toBe('intro');
    s = run(s, { type: 'START' });
    expect(s.step).toBe('document-front');
    s = run(s, ...take('front'));
    expect(s.step).toBe('selfie');
    s = run(s, ...take('selfie'));
    expect(s.step).toBe('review');
    s = run(s, { type: 'SUBMIT' });
    expect(s.step).toBe('uploading');
    s = run(s, { type: 'PROGRESS', fraction: 0.5 }, { type: 'PROGRESS', fraction: 0.2 });
    expect(s.progress).toBe(0.5);
    s = run(s, { type: 'COMPLETED', verificationId: 'vf_x', status: 'queued' });
    expect(s).toMatchObject({ step: 'done', progress: 1, result: { verificationId: 'vf_x', status: 'queued' } });
  });

  it('document-back and liveness steps when asked', () => {
    expect(captureSteps({ documentBack: true, activeLiveness: false })).toEqual(['document-front', 'document-back', 'selfie']);
    let s = run(initialState({ documentBack: true, activeLiveness: true }), { type: 'START' }, ...take('f'), ...take('b'));
    expect(s.step).toBe('selfie');
    s = run(s, ...take('s'));
    expect(s.step).toBe('liveness');
    expect(run(s, { type: 'SUBMIT' }).step).toBe('liveness');
    expect(run(s, { type: 'LIVENESS_DONE' }).step).toBe('review');
  });

  it('a photo waits for confirm; retake discards it', () => {
    let s = run(initialState({ documentBack: false, activeLiveness: false }), { type: 'START' }, { type: 'CAPTURED', capture: shot('a') });
    expect(s.step).toBe('document-front');
    expect(s.pending?.url).toBe('blob:a');
    s = run(s, { type: 'RETAKE' });
    expect(s.pending).toBeNull();
    expect(run(s, { type: 'CONFIRM' })).toBe(s); // nothing to confirm
  });

  it('retake from review returns to review after the new photo', () => {
    let s = run(initialState({ documentBack: false, activeLiveness: false }), { type: 'START' }, ...take('f1'), ...take('s1'));
    s = run(s, { type: 'RETAKE', role: 'docFront' });
    expect(s).toMatchObject({ step: 'document-front', returnToReview: true });
    s = run(s, ...take('f2'));
    expect(s.step).toBe('review');
    expect(s.captures.docFront?.url).toBe('blob:f2');
    expect(s.captures.selfie?.url).toBe('blob:s1');
  });

  it('cancel from any live step is user_cancelled; not from done or error', () => {
    const base = initialState({ documentBack: false, activeLiveness: false });
    for (const s of [
      base,
      run(base, { type: 'START' }),
      run(base, { type: 'START' }, ...take('f'), ...take('s')),
      run(base, { type: 'START' }, ...take('f'), ...take('s'), { type: 'SUBMIT' }),
    ]) {
      const c = run(s, { type: 'CANCEL' });
      expect(c.step).toBe('error');
      expect(c.error?.code).toBe('user_cancelled');
    }
    const done = run(
      base,
      { type: 'START' },
      ...take('f'),
      ...take('s'),
      { type: 'SUBMIT' },
      { type: 'COMPLETED', verificationId: 'vf_x', status: 'queued' },
    );
    expect(run(done, { type: 'CANCEL' })).toBe(done);
    expect(run(done, { type: 'FAILED', error: { code: 'internal_error', message: 'x' } })).toBe(done);
  });

  it('a failure shows the error step; restart goes back to intro with nothing kept', () => {
    let s = run(initialState({ documentBack: false, activeLiveness: false }), { type: 'START' }, ...take('f'));
    s = run(s, { type: 'FAILED', error: { code: 'camera_denied', message: 'denied' } });
    expect(s).toMatchObject({ step: 'error', error: { code: 'camera_denied' } });
    s = run(s, { type: 'RESTART' });
    expect(s).toMatchObject({ step: 'intro', captures: {}, error: null });
  });

  it('ignores events that do not belong to the current step', () => {
    const s = initialState({ documentBack: false, activeLiveness: false });
    for (const e of [
      { type: 'CONFIRM' },
      { type: 'SUBMIT' },
      { type: 'COMPLETED', verificationId: 'x', status: 'queued' },
      { type: 'RESTART' },
      { type: 'CAPTURED', capture: shot('x') },
    ] as FlowEvent[]) {
      expect(transition(s, e)).toBe(s);
    }
  });
});

describe('late hints', () => {
  it('a hint found after capture joins the photo it belongs to, pending or confirmed', () => {
    let s = run(initialState({ documentBack: false, activeLiveness: false }), { type: 'START' }, ...take('f'), {
      type: 'CAPTURED',
      capture: shot('s'),
    });
    expect(s.pending?.checked).toBe(false);
    s = run(s, { type: 'CHECKED', url: 'blob:s', hints: ['no_face_in_selfie'] });
    expect(s.pending).toMatchObject({ hints: ['no_face_in_selfie'], checked: true });
    s = run(
      s,
      { type: 'CONFIRM' },
      { type: 'CHECKED', url: 'blob:s', hints: ['no_face_in_selfie'] },
      { type: 'CHECKED', url: 'blob:other', hints: ['blurry_image'] },
    );
    expect(s.captures.selfie?.hints).toEqual(['no_face_in_selfie']);
    expect(s.captures.docFront?.hints).toEqual([]);
  });
});
