// A minimal webhook receiver for the identity-verification service, on Node's own http module.
// Run: SERVICE_WEBHOOK_SECRET=... node examples/webhook-receiver.mjs (behind your HTTPS proxy in
// production; locally the service delivers to http://127.0.0.1:4000/ when started with
// WEBHOOK_ALLOW_PRIVATE_NETWORKS=true). During a secret rotation set both, comma-separated:
// SERVICE_WEBHOOK_SECRET=old,new (see docs/webhooks.md).
//
// 1. Read the raw body: the signature covers the exact bytes, so never re-serialise JSON first.
// 2. Verify with @service/webhooks (constant-time, 300 s tolerance).
// 3. Deduplicate on the event id: delivery is at least once.
// 4. Answer 2xx only after the event is stored; 5xx makes the service retry (5 s, 30 s, 2 min, 10 min).
import http from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@service/webhooks';

const secrets = (process.env.SERVICE_WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
if (secrets.length === 0) throw new Error('Set SERVICE_WEBHOOK_SECRET');
const seen = new Set(); // use a table with a unique key in production

http
  .createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let event;
      try {
        event = verifyWebhook({ rawBody: Buffer.concat(chunks), header: req.headers['service-signature'], secret: secrets });
      } catch (err) {
        if (err instanceof WebhookVerificationError) {
          console.warn('rejected delivery:', err.code);
          return res.writeHead(400).end();
        }
        throw err;
      }
      if (seen.has(event.id)) return res.writeHead(200).end(); // a retry of one we already have
      try {
        switch (event.type) {
          case 'verification.approved':
          case 'verification.rejected':
          case 'verification.needs_review':
          case 'verification.reviewed':
          case 'verification.failed':
            console.log(event.type, event.verificationId, event.verdict, event.userRef ?? '');
            break;
          case 'webhook.test':
            console.log(event.type, event.id); // the operator's test delivery (npm run admin -- webhooks test)
            break;
          default:
            break; // new types may appear within /v1: ignore them
        }
        seen.add(event.id);
        res.writeHead(204).end();
      } catch {
        res.writeHead(500).end(); // we will get it again
      }
    });
  })
  .listen(Number(process.env.PORT ?? 4000), '127.0.0.1', function () {
    console.log(`receiver listening on http://127.0.0.1:${this.address().port}/`);
  });
