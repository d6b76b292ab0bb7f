export { adminOpenApiDocument, jsonSchema, openApiPath, publicOpenApiDocument } from './build.js';
export { ADMIN_ROUTES, PUBLIC_ROUTES, type RouteAuth, type RouteParam, type RouteSpec } from './routes.js';
export * as openApiExamples from './examples.js';
