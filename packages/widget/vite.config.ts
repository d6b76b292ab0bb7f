import { build, defineConfig, type Plugin } from 'vite';

/**
 * Safe to import during server-side rendering: nothing may touch the DOM at module load. Lit's
 * browser build does twice: `class extends HTMLElement` in reactive-element and
 * `document.createTreeWalker` in lit-html. Both get the guard Lit's own node builds use
 * (`globalThis.HTMLElement`, a stand-in tree walker when there is no document). The build fails if
 * a Lit upgrade changes either pattern, rather than silently losing SSR safety. (The package's own
 * entry leaves Lit to the app, whose bundler picks Lit's node build for the server.)
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
      return { code: code.replace(patch.from, patch.to), map: null };
    },
  };
}

/**
 * `virtual:frame-worker`: the frame worker (src/vision/frame-worker.ts and what it imports)
 * built on its own into one minified ES module, as a string the widget starts from a Blob URL.
 */
function frameWorkerSource(): Plugin {
  const id = 'virtual:frame-worker';
  return {
    name: 'frame-worker-source',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    async load(resolved) {
      if (resolved !== `\0${id}`) return null;
      const out = await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          write: false,
          target: 'es2022',
          minify: true,
          lib: {
            entry: new URL('./src/vision/frame-worker.ts', import.meta.url).pathname,
            formats: ['es'],
            fileName: () => 'frame-worker.js',
          },
          rolldownOptions: { output: { minify: true, codeSplitting: false } },
        },
      });
      const chunk = (Array.isArray(out) ? out[0]! : out) as { output: { code?: string }[] };
      return `export default ${JSON.stringify(chunk.output[0]!.code)};`;
    },
  };
}

/**
 * The widget's stylesheet (one `css` template) leaves its comments and indentation behind: a
 * stylesheet needs neither, and the core bundle has a budget.
 */
function compactStyles(): Plugin {
  return {
    name: 'compact-styles',
    transform(code, id) {
      if (!id.endsWith('service-widget.styles.ts')) return null;
      return {
        code: code.replace(/css`([\s\S]*?)`/, (_m, body: string) => {
          const compact = body
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/\s*([{};,>])\s*/g, '$1')
            .trim();
          return `css\`${compact}\``;
        }),
        map: null,
      };
    },
  };
}

const LIT = [/^lit($|\/)/, /^@lit\//, /^lit-html($|\/)/, /^lit-element($|\/)/];

/**
 * Two builds of one source. The served bundle (default): `dist/service-widget.js`, self-contained
 * (Lit inside), what `GET /widget/service-widget.js` serves, its lazily loaded parts (languages,
 * liveness, the handoff screen, the frame worker) in `dist/chunks/`. `--mode package`: the
 * package's ES entries `dist/esm/index.js` and `react.js`, importing `lit` (a dependency), so a
 * Lit app that imports the widget bundles one Lit, and `guidance.js` (no DOM).
 */
export default defineConfig(({ mode }) => {
  const pkg = mode === 'package';
  return {
    plugins: [...(pkg ? [] : [litSsrSafe()]), compactStyles(), frameWorkerSource()],
    build: {
      lib: pkg
        ? // `guidance`: the document guidance's pure reading of a grey frame, for measuring captures offline (evaluation/src/capture).
          { entry: { index: 'src/index.ts', react: 'src/react.ts', guidance: 'src/guidance/advice.ts' }, formats: ['es'] }
        : { entry: 'src/index.ts', formats: ['es'], fileName: () => 'service-widget.js' },
      outDir: pkg ? 'dist/esm' : 'dist',
      target: 'es2022',
      minify: true,
      sourcemap: true,
      emptyOutDir: false,
      rolldownOptions: {
        external: pkg ? LIT : [],
        // Lets what the entry and a lazy part share stay in the entry (exported to the part), not a chunk of its own.
        preserveEntrySignatures: 'allow-extension',
        output: { minify: true, chunkFileNames: 'chunks/[name]-[hash].js', entryFileNames: pkg ? '[name].js' : 'service-widget.js' },
      },
    },
  };
});
