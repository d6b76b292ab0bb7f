import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processUsage } from '../../src/pipeline-runner/process-usage.js';

describe('processUsage: a pipeline child and the engines it started', () => {
  it("counts a grandchild's CPU time and memory with its parent's", async () => {
    // The parent sleeps; the process it starts burns CPU (as an OCR engine reading a page does).
    const parent = spawn(process.execPath, [
      '-e',
      `require('child_process').spawn(process.execPath, ['-e', 'const b = Buffer.alloc(64 << 20, 1); const t = Date.now(); while (Date.now() - t < 4000) b[0]++;'], { stdio: 'inherit' }); setTimeout(() => {}, 8000);`,
    ]);
    try {
      // The parent itself does almost nothing; with its child it spends over a second and holds the 64 MB.
      await expect.poll(() => processUsage(parent.pid!)?.cpuMs ?? 0, { timeout: 6000, interval: 100 }).toBeGreaterThan(1000);
      expect(processUsage(parent.pid!)!.rssBytes).toBeGreaterThan(64 << 20);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('is null for a process that does not exist', () => {
    expect(processUsage(2 ** 22 + 1)).toBeNull();
  });
});
