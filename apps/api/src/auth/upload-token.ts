import type { Context, Middleware } from 'koa';
import type { AppDeps } from '../app-deps.js';
import { invalidBody } from '../http/api-error.js';
import { loadIntentWithToken, type LoadedIntent } from '../verifications/intent.js';

declare module 'koa' {
  interface DefaultState {
    /** The intent an upload-token route works on, once its token matched. */
    intent?: LoadedIntent;
  }
}

export interface UploadTokenOptions {
  /** Checks of the path that come before the token is compared (the upload's role segment). */
  checkPath?: (ctx: Context) => void;
}

/**
 * The upload-token routes' authentication (upload and challenge), as `requireApiKey` is the API
 * keys': the header must be there, the intent must exist and the token must be its own. The
 * intent is left in `ctx.state.intent`. A bearer key has no effect on these routes.
 */
export function requireUploadToken(deps: AppDeps, opts: UploadTokenOptions = {}): Middleware {
  return async (ctx, next) => {
    const token = ctx.get('X-Service-Upload-Token');
    if (!token) throw invalidBody('missing_upload_token', 'X-Service-Upload-Token header is required');
    opts.checkPath?.(ctx);
    ctx.state.intent = await loadIntentWithToken(deps, (ctx.params as { verificationId: string }).verificationId, token);
    await next();
  };
}
