import type Router from '@koa/router';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { route } from '../http/route.js';

/**
 * GET /openapi.json and GET /admin/openapi.json: the OpenAPI 3.1 documents the contract's build
 * generated from its zod schemas (packages/contract/src/openapi), served as they are. No auth,
 * no rate limit.
 */
export function registerOpenApi(router: Router): void {
  const require = createRequire(import.meta.url);
  const load = (entry: string) => fs.readFileSync(require.resolve(entry));
  const documents = [
    ['/openapi.json', load('@service/contract/openapi/public.json')],
    ['/admin/openapi.json', load('@service/contract/openapi/admin.json')],
  ] as const;
  for (const [path, body] of documents) {
    route(router, `GET ${path}`, (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = 'application/json';
      ctx.body = body;
    });
  }
}
