import { defineConfig, type Plugin } from 'vite';

/**
 * Safe to import during server-side rendering: nothing may touch the DOM at module load. Lit's
 * browser build does twice: `class extends HTMLElement` in reactive-element and
 * `document.createTreeWalker` in lit-html. Both get the guard Lit's own node builds use
 * (`globalThis.HTMLElement`, a stand-in tree walker when there is no document). The build fails if
 * a Lit upgrade changes either pattern, rather than silently losing SSR safety.
 */
function litSsrSafe(): Plugin {
  const patches: { file: RegExp; from: string; to: string }[] = [
    {
      file: /@lit[\\/]reactive-element[\\/]reactive-element\.js$/,
      from: 'extends HTMLElement',
      to: 'extends (globalThis.HTMLElement ?? class {})',
    },
    { file: /lit-html[\\/]lit-html\.js$/, from: '=document,', to: '=(globalThis.document===void 0?{createTreeWalker:()=>({})}:document),' },
  ];
  return {
    name: 'lit-ssr-safe',
    enforce: 'pre',
    transform(code, id) {
      const patch = patches.find((p) => p.file.test(id));
      if (!patch) return null;
      const count = code.split(patch.from).length - 1;
      if (count !== 1) throw new Error(`lit-ssr-safe: expected one "${patch.from}" in ${id}, found ${count}`);
      return code.replace(patch.from, patch.to);
    },
  };
}

// One ES module, fully minified; only the contract's constants are bundled (it is side-effect free).
export default defineConfig({
  plugins: [litSsrSafe()],
  build: {
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'service-widget.js' },
    target: 'es2022',
    minify: true,
    sourcemap: true,
    emptyOutDir: false,
    rolldownOptions: { output: { minify: true } },
  },
});
