export * from './codes.js';
export * from './limits.js';
export * from './roles.js';
export * from './schemas.js';
export * from './image-measures.js';
export * from './dashboard.js';
export * from './admin-schemas.js';
export * from './dashboard-overview.js';
