import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * The package's entry imports `lit` (a dependency) rather than carrying its own: a Lit app that
 * uses the widget bundles one lit-html, one lit-element and one reactive-element. Each copy
 * registers its version on a global list, which is what is counted here.
 */
describe('one Lit in an app that uses the widget', () => {
  it('bundles one copy of lit-html, lit-element and reactive-element', async () => {
    const out = await build({
      configFile: false,
      logLevel: 'silent',
      // As an app's production build (under vitest the mode would be `test`, resolving Lit's development build).
      mode: 'production',
      resolve: { conditions: ['production', 'module', 'browser', 'default'] },
      root: new URL('./fixtures/lit-app/', import.meta.url).pathname,
      build: {
        write: false,
        minify: true,
        target: 'es2022',
        lib: { entry: 'main.ts', formats: ['es'], fileName: () => 'app.js' },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    const code = (Array.isArray(out) ? out[0]! : (out as { output: { code?: string }[] })).output.map((c) => c.code ?? '').join('\n');
    const modules = (Array.isArray(out) ? out[0]! : (out as { output: { modules?: object }[] })).output.flatMap((c) =>
      Object.keys((c as { modules?: object }).modules ?? {}),
    );
    for (const file of ['lit-html/lit-html.js', 'lit-element/lit-element.js', 'reactive-element/reactive-element.js']) {
      expect(
        modules.filter((m) => m.endsWith(file)),
        file,
      ).toHaveLength(1);
    }
    for (const marker of ['litHtmlVersions', 'litElementVersions', 'reactiveElementVersions']) {
      expect(code.split(marker).length - 1, marker).toBe(1);
    }
    // And no zod: the widget bundles no schema library (its strict-CSP pages need no eval check).
    expect(code).not.toContain('_zod');
    console.log(
      `[one-lit] a Lit app with the widget (every part inlined): ${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1)} kB gzip`,
    );
  }, 60_000);
});
