/**
 * Headless Chromium for the dashboards' browser tests: Debian's `chromium` package driven by playwright-core
 * (never a downloaded browser). The network is closed, so background networking is off.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = process.env.OPGATE_CHROMIUM ?? '/usr/bin/chromium';

export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);

/** Where the browser tests leave their screenshots (a CI artifact, not committed). */
export const ARTIFACTS = process.env.OPGATE_ARTIFACTS ?? join(process.cwd(), 'artifacts', 'dashboards');

/** A fresh profile each time (a new empty --user-data-dir). */
export async function launchChromium(): Promise<BrowserContext> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'opgate-chromium-'));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
