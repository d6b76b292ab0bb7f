import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

export interface SpawnedService {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * Runs the built service (`node dist/main.js`) as its own process and waits until it listens.
 * `onOutput` sees everything it prints while it starts (e.g. to act on a log line).
 */
export function spawnService(
  env: Record<string, string>,
  onOutput?: (all: string) => void,
  startTimeoutMs = 30_000,
): Promise<SpawnedService> {
  const { child, output } = startChild(env);
  const out = () => output.text;
  return new Promise((resolve, reject) => {
    // A start that times out must not leave an orphan serving (and holding a database) after the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start:\n${out()}`));
    }, startTimeoutMs);
    const onData = () => {
      onOutput?.(out());
      const m = /listening on (http:\/\/\S+)/.exec(out());
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve({ child, url: m[1]!, output: out });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out()}`));
    });
  });
}

export function killHard(s: SpawnedService): Promise<void> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve(); // already gone
    s.child.once('exit', () => resolve());
    s.child.kill('SIGKILL');
  });
}

/** Runs the service to completion (it is expected to exit) and returns its exit code and output. */
export function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { child, output } = startChild(env);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output: output.text })));
}

/** The service as a child process, everything it prints collected in `output.text`. */
function startChild(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { text: '' };
  child.stdout!.on('data', (c) => (output.text += c));
  child.stderr!.on('data', (c) => (output.text += c));
  return { child, output };
}
