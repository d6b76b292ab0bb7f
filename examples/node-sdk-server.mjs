// A server-side integration with @service/node: your page embeds <service-widget>, your server
// reads the result with the secret key and receives the signed webhooks.
// Run: SERVICE_URL=https://verify.example.com SERVICE_SECRET_KEY=qv_sec_... SERVICE_PUBLISHABLE_KEY=qv_pub_... \
//      SERVICE_WEBHOOK_SECRET=... node examples/node-sdk-server.mjs
//
// - GET  /                      the page: the widget (publishable key) runs init, the uploads and submit
//                               in the browser, then posts the verification id to this server.
// - POST /verifications/:id     the server waits for the verdict with the SDK (secret key, never in the page).
// - POST /verifications/server  init on the server (for flows that upload from the back end, e.g.
//                               images a partner sent you): uploads and submits with the SDK.
// - POST /webhooks/service      the webhook receiver: raw body, SDK verify (old and new secret during a
//                               rotation), dedupe on event id, 2xx only once stored.
import http from 'node:http';
import { ServiceClient, ServiceError, WebhookVerificationError } from '@service/node';

const { SERVICE_URL, SERVICE_SECRET_KEY, SERVICE_PUBLISHABLE_KEY, SERVICE_WEBHOOK_SECRET, SERVICE_WEBHOOK_SECRET_OLD } = process.env;
if (!SERVICE_URL || !SERVICE_SECRET_KEY || !SERVICE_PUBLISHABLE_KEY || !SERVICE_WEBHOOK_SECRET) {
  throw new Error('Set SERVICE_URL, SERVICE_SECRET_KEY, SERVICE_PUBLISHABLE_KEY and SERVICE_WEBHOOK_SECRET');
}
const client = new ServiceClient({ apiKey: SERVICE_SECRET_KEY, baseUrl: SERVICE_URL });
const webhookSecrets = [SERVICE_WEBHOOK_SECRET, SERVICE_WEBHOOK_SECRET_OLD].filter(Boolean);
const seenEvents = new Set(); // a table with a unique key in production

const page = `<!doctype html><meta charset="utf-8"><title>Verify your identity</title>
<script type="module" src="${SERVICE_URL}/widget/service-widget.js"></script>
<service-widget publishable-key="${SERVICE_PUBLISHABLE_KEY}" api-base="${SERVICE_URL}" user-ref="customer-42"></service-widget>
<p id="out"></p>
<script type="module">
  document.querySelector('service-widget').addEventListener('service:complete', async (e) => {
    const r = await fetch('/verifications/' + e.detail.verificationId, { method: 'POST' });
    document.getElementById('out').textContent = JSON.stringify(await r.json());
  });
</script>`;

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
const json = (res, status, body) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

http
  .createServer(async (req, res) => {
    try {
      if (req.method === 'GET' && req.url === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);

      if (req.method === 'POST' && req.url === '/webhooks/service') {
        const raw = await readBody(req);
        let event;
        try {
          event = client.webhooks.verify(raw, req.headers['service-signature'], webhookSecrets);
        } catch (err) {
          if (err instanceof WebhookVerificationError) return res.writeHead(400).end(err.code);
          throw err;
        }
        if (!seenEvents.has(event.id)) {
          seenEvents.add(event.id);
          console.log('webhook', event.type, event.verificationId, event.verdict);
        }
        return res.writeHead(200).end();
      }

      if (req.method === 'POST' && req.url === '/verifications/server') {
        const { docFrontJpegBase64, selfieJpegBase64, fullName } = JSON.parse((await readBody(req)).toString('utf8'));
        const init = await client.verifications.init({ submittedFullName: fullName });
        await client.verifications.upload(init.uploads.docFront, Buffer.from(docFrontJpegBase64, 'base64'), { captureSource: 'upload' });
        await client.verifications.upload(init.uploads.selfie, Buffer.from(selfieJpegBase64, 'base64'), { captureSource: 'camera' });
        const { docFront, selfie } = init.uploads;
        const submitted = await client.verifications.submit({
          verificationId: init.verificationId,
          keys: { docFront: docFront.key, selfie: selfie.key },
        });
        return json(res, 202, submitted);
      }

      const m = /^\/verifications\/(vf_[A-Za-z0-9]{16,24})$/.exec(req.url ?? '');
      if (req.method === 'POST' && m) {
        const record = await client.verifications.waitForVerdict(m[1], { timeoutMs: 30_000 });
        return json(res, 200, { status: record.status, verdict: record.verdict, reasons: record.reasons });
      }
      res.writeHead(404).end();
    } catch (err) {
      // The request id lets the service's operator find the call in its logs.
      if (err instanceof ServiceError) return json(res, 502, { error: err.code, requestId: err.requestId });
      console.error(err);
      res.writeHead(500).end();
    }
  })
  .listen(Number(process.env.PORT ?? 3000), () => console.log('listening'));
