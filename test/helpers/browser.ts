/**
 * Debian's Chromium driven by playwright-core. Playwright's own browser
 * download is not used (nor reachable here): `.ci/run` installs `chromium`.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
) as string[];

export async function launchChromium(): Promise<Browser> {
  const executablePath = CANDIDATES.find((path) => existsSync(path));
  if (!executablePath) throw new Error(`Chromium not found (tried ${CANDIDATES.join(', ')}): apt-get install chromium`);
  return chromium.launch({
    executablePath,
    headless: true,
    // This machine has no network but loopback: keep Chromium from phoning home at start.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
