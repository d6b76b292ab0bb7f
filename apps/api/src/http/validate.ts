import { type z } from 'zod';
import { ApiError } from './api-error.js';

/** Validates with a contract schema; failures become 400 `invalid_body` with `detail.fieldErrors`. */
export function validateBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_body';
    (fieldErrors[field] ??= []).push(issue.message);
  }
  throw new ApiError('invalid_body', 'Request body failed validation', { fieldErrors });
}
