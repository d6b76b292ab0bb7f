import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { widgetCodeFor, apiFlowError } from '../src/api/errors.js';
import { resolveLocale } from '../src/controllers/localize-controller.js';
import { errorMessage, translations } from '../src/i18n/messages.js';
import { laplacianVariance } from '../src/quality/local-check.js';
import { WIDGET_ERROR_CODES, WIDGET_HINT_CODES } from '@service/contract';

describe('API error to widget code', () => {
  it.each([
    [401, 'missing_api_key', 'invalid_api_key'],
    [401, 'invalid_api_key', 'invalid_api_key'],
    [402, 'insufficient_credits', 'insufficient_credits'],
    [429, 'rate_limited', 'rate_limited'],
    [500, 'internal_error', 'api_unreachable'],
    [503, 'backend_unavailable', 'api_unreachable'],
    [400, 'invalid_body', 'internal_error'],
    [403, 'origin_not_allowed', 'internal_error'],
    [404, 'verification_not_found', 'internal_error'],
    [418, undefined, 'internal_error'],
  ])('%i %s -> %s', (status, error, code) => {
    expect(widgetCodeFor(status, error ? { error } : null)).toBe(code);
  });
  it('keeps the API detail verbatim, and only when there is one', () => {
    expect(apiFlowError(429, { error: 'rate_limited', detail: { retry_after: 12 } }, 'init').detail).toMatchObject({
      code: 'rate_limited',
      detail: { retry_after: 12 },
    });
    expect(apiFlowError(402, { error: 'insufficient_credits' }, 'init').detail).not.toHaveProperty('detail');
  });
});

describe('locales', () => {
  it('every locale has every message, including every error code shown on screen', () => {
    const keys = (o: object) => Object.keys(o).sort();
    for (const [name, m] of Object.entries(translations)) {
      expect(keys(m), name).toEqual(keys(translations.en!));
      for (const code of WIDGET_ERROR_CODES) {
        const hint = (WIDGET_HINT_CODES as readonly string[]).includes(code);
        // A hint never reaches the error screen; if it did, it would read as internal_error.
        expect(errorMessage(m, code), `${name} ${code}`).toBe(
          hint ? m.errors.internal_error : m.errors[code as Exclude<typeof code, 'blurry_image' | 'no_face_in_selfie'>],
        );
        expect(errorMessage(m, code), `${name} ${code}`).toBeTruthy();
      }
      expect(Object.keys(m.errors).sort(), name).toEqual(
        WIDGET_ERROR_CODES.filter((c) => !(WIDGET_HINT_CODES as readonly string[]).includes(c)).sort(),
      );
    }
    expect(Object.keys(translations).length).toBeGreaterThanOrEqual(2);
  });
  it('resolves exact, then language, then English', () => {
    expect(resolveLocale('es')).toBe('es');
    expect(resolveLocale('ES-mx')).toBe('es');
    expect(resolveLocale('fr')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
  });
});

describe('blur measure', () => {
  it('variance of the Laplacian: high for sharp edges, near zero for a flat image', () => {
    const w = 64;
    const h = 64;
    const sharp = new Uint8Array(w * h).map((_, i) => ((((i % w) >> 2) + ((i / w) >> 2)) % 2 ? 255 : 0));
    const flat = new Uint8Array(w * h).fill(128);
    const smooth = new Uint8Array(w * h).map((_, i) => (i % w) * 2);
    expect(laplacianVariance(sharp, w, h)).toBeGreaterThan(1000);
    expect(laplacianVariance(flat, w, h)).toBe(0);
    expect(laplacianVariance(smooth, w, h)).toBeLessThan(1);
  });
});

describe('the built bundle', () => {
  const bundle = new URL('../dist/service-widget.js', import.meta.url);
  it('imports in Node without a DOM (server-side rendering) and registers nothing there', () => {
    const out = execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(bundle.href)}); console.log(Object.keys(m).sort().join(','), typeof globalThis.customElements, typeof globalThis.HTMLElement);`,
    ])
      .toString()
      .trim();
    expect(out).toBe('ServiceWidget,defineServiceWidget undefined undefined');
  });
  it('is one ES module under 30 kB gzip, with no eval', () => {
    const size = JSON.parse(fs.readFileSync(new URL('../dist/size.json', import.meta.url), 'utf8'));
    expect(size.gzip).toBeLessThanOrEqual(30 * 1024);
    const code = fs.readFileSync(bundle, 'utf8');
    expect(code).not.toMatch(/\beval\(|new Function\(/);
    expect(code).not.toMatch(/^import\s/m);
  });
});
