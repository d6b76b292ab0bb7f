// The demo page's only script (no inline script: the page runs under a strict CSP).
const config = await (await fetch('/demo/config.json')).json();
const form = document.getElementById('settings');
const host = document.getElementById('widget-host');
const events = document.getElementById('events');
const verdict = document.getElementById('verdict');

function log(name, detail) {
  const li = document.createElement('li');
  li.textContent = `${new Date().toLocaleTimeString()}  ${name}  ${JSON.stringify(detail)}`;
  events.append(li);
}

async function pollVerdict(id, mode) {
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`/demo/verifications/${id}?mode=${mode}`);
    const body = await res.json();
    verdict.textContent = JSON.stringify(body, null, 2);
    if (body.status === 'completed' || body.status === 'failed') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function mount() {
  const data = new FormData(form);
  const mode = data.get('mode');
  const widget = document.createElement('service-widget');
  widget.setAttribute('publishable-key', mode === 'live' ? config.publishable : config.publishableTest);
  widget.setAttribute('full-name', String(data.get('fullName') ?? ''));
  widget.setAttribute('locale', String(data.get('locale')));
  widget.setAttribute('user-ref', 'demo-user');
  if (data.get('documentBack')) widget.setAttribute('document-back', '');
  if (data.get('activeLiveness')) widget.setAttribute('active-liveness', '');
  if (data.get('crossDevice')) widget.setAttribute('cross-device', '');
  if (data.get('manualCapture')) widget.setAttribute('manual-capture', '');
  widget.addEventListener('service:complete', (e) => {
    log('service:complete', e.detail);
    verdict.textContent = 'Submitted; waiting for the verdict…';
    void pollVerdict(e.detail.verificationId, mode);
  });
  widget.addEventListener('service:error', (e) => log('service:error', e.detail));
  host.replaceChildren(widget);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  mount();
});
mount();
