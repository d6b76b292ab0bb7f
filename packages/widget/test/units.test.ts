import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { widgetCodeFor, apiFlowError } from '../src/api/errors.js';
import { resolveLocale } from '../src/controllers/localize-controller.js';
import { en } from '../src/i18n/en.js';
import { errorMessage, LOCALE_LOADERS, LOCALES, type Messages } from '../src/i18n/messages.js';
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

/** Every string of a messages object, nested records included, by its path (`guidance.ready`). */
function strings(m: object, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(m).flatMap(([k, v]) =>
      v && typeof v === 'object' ? Object.entries(strings(v, `${prefix}${k}.`)) : [[`${prefix}${k}`, v] as [string, unknown]],
    ),
  );
}

async function allLocales(): Promise<Record<string, Messages>> {
  const loaded: Record<string, Messages> = { en };
  for (const [lang, load] of Object.entries(LOCALE_LOADERS)) loaded[lang] = (await load()).messages;
  return loaded;
}

describe('locales', () => {
  it('twelve languages, each with every message (nested ones too), none left in English', async () => {
    const translations = await allLocales();
    expect(Object.keys(translations).sort()).toEqual([...LOCALES].sort());
    const reference = strings(en);
    for (const [name, m] of Object.entries(translations)) {
      const own = strings(m);
      expect(Object.keys(own).sort(), name).toEqual(Object.keys(reference).sort());
      for (const [key, value] of Object.entries(own)) {
        if (typeof value === 'function') {
          const args = key === 'retakePhoto' ? ['Selfie'] : [2, 4];
          expect(typeof (value as (...a: unknown[]) => string)(...args), `${name} ${key}`).toBe('string');
          continue;
        }
        expect(typeof value === 'string' && value.trim().length > 0, `${name} ${key}`).toBe(true);
        // The same text as English is a string nobody translated (a product word such as "Selfie" aside).
        if (name !== 'en' && !key.endsWith('selfie')) expect(value, `${name} ${key}`).not.toBe(reference[key]);
      }
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
  });
  it('resolves a language, a regional tag to its language, anything else to English', () => {
    expect(resolveLocale('es')).toBe('es');
    expect(resolveLocale('ES-mx')).toBe('es');
    expect(resolveLocale('pt-BR')).toBe('pt');
    expect(resolveLocale('zh-Hans-CN')).toBe('zh');
    expect(resolveLocale('ar')).toBe('ar');
    expect(resolveLocale('fr')).toBe('fr');
    expect(resolveLocale('sv')).toBe('en');
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
    // Besides its two public names the module exports, under minified names, what its lazily loaded parts share with it.
    const [names, ...globals] = out.split(' ');
    const exported = names!.split(',');
    expect(exported).toEqual(expect.arrayContaining(['ServiceWidget', 'defineServiceWidget']));
    expect(exported.filter((n) => n !== 'ServiceWidget' && n !== 'defineServiceWidget').every((n) => n.length <= 2)).toBe(true);
    expect(globals).toEqual(['undefined', 'undefined']);
  });
  it('has a core under 16 kB gzip, its parts loaded lazily from beside it, with no eval and no bare import', () => {
    const size = JSON.parse(fs.readFileSync(new URL('../dist/size.json', import.meta.url), 'utf8'));
    expect(size.gzip).toBeLessThanOrEqual(16 * 1024);
    const chunks = Object.keys(size.chunks as object);
    for (const part of ['frame-worker-client', 'handoff', 'liveness-screen', 'capture-kit', 'ar', 'zh']) {
      expect(
        chunks.some((c) => c.startsWith(`${part}-`)),
        part,
      ).toBe(true);
    }
    for (const file of [bundle, ...chunks.map((c) => new URL(`../dist/chunks/${c}`, import.meta.url))]) {
      const code = fs.readFileSync(file, 'utf8');
      expect(code).not.toMatch(/\beval\(|new Function\(/);
      // Self-contained: only relative imports of its own parts (Lit and the contract are inside).
      expect(code).not.toMatch(/\bfrom\s*["'][^."'/]/);
      expect(code).not.toMatch(/\bimport\(\s*["'][^."'/]/);
    }
  });
});
