/**
 * The phone's page (`GET /continue/<code>`): the widget in handoff mode, from this API's own
 * origin. No key and no code in it (the widget reads the code from the address), no inline
 * script or style, so the policy below can be strict.
 */
export const HANDOFF_PAGE_CSP = [
  "default-src 'none'",
  // The widget and its lazily loaded parts; WebAssembly for the face models (no JavaScript eval).
  "script-src 'self' 'wasm-unsafe-eval'",
  // The frame worker starts from a Blob URL (the widget's own code).
  'worker-src blob:',
  "connect-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob: mediastream:",
  "style-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = Buffer.from(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <meta name="robots" content="noindex" />
    <title>Identity verification</title>
    <script type="module" src="/widget/service-widget.js"></script>
  </head>
  <body>
    <main>
      <service-widget handoff></service-widget>
    </main>
  </body>
</html>
`);

export function handoffPage(): Buffer {
  return PAGE;
}
