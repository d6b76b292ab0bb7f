// The React entry's JavaScript: the default entry (which registers the element); its value is in
// its types (dist/types/react.d.ts, from src/react.ts), which declare the element in React's JSX.
import fs from 'node:fs';
fs.writeFileSync(new URL('../dist/react.js', import.meta.url), "export * from './service-widget.js';\n");
