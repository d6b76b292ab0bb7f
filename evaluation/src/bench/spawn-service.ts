import { spawn, type ChildProcess } from 'node:child_process';

/** Starts a node script (the service or a baseline server) and resolves with the URL it prints. */
export function startListening(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let url: string | null = null;
    child.stdout!.on('data', (c) => {
      if (url) return; // then drain and discard (request logs)
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: (url = m[1]!) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}\n${out}`)));
  });
}
