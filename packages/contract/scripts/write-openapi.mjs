// Build step: writes dist/openapi/{public,admin}.json from the compiled contract; the API serves them as they are.
import { writeFileSync } from 'node:fs';
import { adminOpenApiDocument, publicOpenApiDocument } from '../dist/openapi/index.js';

const out = new URL('../dist/openapi/', import.meta.url);
writeFileSync(new URL('public.json', out), JSON.stringify(publicOpenApiDocument()));
writeFileSync(new URL('admin.json', out), JSON.stringify(adminOpenApiDocument()));
