import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/http/logger.js')).href;

/** Runs a script against the built logger in a process of its own and returns what it printed. */
function run(body: string): string {
  const script = `import { createLogger, flushLogSync } from ${JSON.stringify(LOGGER)};\nconst log = createLogger('info');\n${body}`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  return r.stdout;
}

describe('the last log lines before a process dies', () => {
  it('buffered lines are written by flushLogSync before an exit', () => {
    const out = run(`for (let i = 0; i < 40; i++) log.info({ i }, 'line');\nflushLogSync(log);\nprocess.exit(1);`);
    expect(out.trim().split('\n')).toHaveLength(40);
  });

  it('without the flush they would be lost (the buffer is real)', () => {
    const out = run(`for (let i = 0; i < 5; i++) log.info({ i }, 'line');\nprocess.kill(process.pid, 'SIGKILL');`);
    expect(out).toBe('');
  });

  it('a warning or an error is written at once, even if the process is then killed hard', () => {
    const out = run(
      `log.info('buffered');\nlog.error({ err: { message: 'the real cause' } }, 'boom');\nsetTimeout(() => process.kill(process.pid, 'SIGKILL'), 200);`,
    );
    expect(out).toContain('the real cause');
    expect(out).toContain('buffered');
  });
});
