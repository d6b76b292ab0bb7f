import { z } from 'zod';

// Imported first by main.ts, before the contract's schemas are built: zod decides at each object
// schema's construction whether to compile a fast parser, probing with `new Function('')`. Under
// the dashboard's CSP (no 'unsafe-eval') that probe is blocked and reported as a violation on
// every load; jitless mode skips the probe (parsing stays correct, a little slower).
z.config({ jitless: true });
