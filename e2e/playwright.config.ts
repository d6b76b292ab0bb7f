import { defineConfig } from '@playwright/test';
import { CAMERA_FILE, CHROMIUM, CHROMIUM_FLAGS } from './support/env.js';

/**
 * Debian Chromium with a fake camera fed from a y4m file. Permission is granted per context
 * (`permissions: ['camera']`), so a context without it sees a denial. One worker: the fake camera
 * file is shared and the machine has two cores.
 */
export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results/artifacts',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './support/global-setup.ts',
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  use: {
    viewport: { width: 480, height: 900 },
    permissions: ['camera'],
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [...CHROMIUM_FLAGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${CAMERA_FILE}`],
    },
  },
});
