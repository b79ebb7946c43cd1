import { defineConfig } from '@playwright/test';
import { LOOPBACK_CHROMIUM_FLAGS } from './services/dip/src/pdf/chromium-flags';

// Browser tests run in the machine's Chromium (never a downloaded one). The system under test is
// E2E_BASE_URL, or what e2e/support/global-setup.ts starts.

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/playwright',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: LOOPBACK_CHROMIUM_FLAGS,
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
