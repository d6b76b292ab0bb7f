// `cem analyze` (Custom Elements Manifest): the element's public surface only. Lit's internal
// reactive state (`{ state: true }` in `static properties`) is no attribute, and the private
// `emit(name, …)` helper is no event of its own (the events are the `@fires` tags).
import fs from 'node:fs';

const source = fs.readFileSync(new URL('./src/service-widget.ts', import.meta.url), 'utf8');
const internal = new Set([...source.matchAll(/^\s+(\w+): \{ state: true \}/gm)].map((m) => m[1]));

export default {
  globs: ['src/service-widget.ts'],
  litelement: true,
  outdir: '.',
  plugins: [
    {
      name: 'public-surface-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const decl of mod.declarations ?? []) {
            if (decl.attributes) decl.attributes = decl.attributes.filter((a) => !internal.has(a.name));
            if (decl.members) decl.members = decl.members.filter((m) => !internal.has(m.name));
            if (decl.events) decl.events = decl.events.filter((e) => e.name !== 'name');
          }
        }
      },
    },
  ],
};
