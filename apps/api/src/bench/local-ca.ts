import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A throwaway certificate authority and a `localhost` server certificate signed by it, written to
 * `dir` (ca.pem, server.key, server.pem), for HTTPS webhook receivers in benchmarks and tests
 * (the service trusts ca.pem through NODE_EXTRA_CA_CERTS). Uses the system's openssl.
 */
export function makeLocalCa(dir: string, opts: { days: number; name: string }): { ca: string; key: string; cert: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const days = String(opts.days);
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', days, '-subj', `/CN=${opts.name}`);
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    days,
    '-extfile',
    'ext.cnf',
  );
  return { ca: path.join(dir, 'ca.pem'), key: path.join(dir, 'server.key'), cert: path.join(dir, 'server.pem') };
}
