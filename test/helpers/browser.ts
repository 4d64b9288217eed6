/**
 * Debian's Chromium driven by playwright-core. Playwright's own browser
 * download is not used (nor reachable here): `.ci/run` installs `chromium`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
) as string[];

/**
 * Chromium keeps only the last --disable-features of its command line, so
 * ours repeats the list Playwright passes (playwright-core's
 * chromiumSwitches.ts); launchChromium checks on the running browser that it
 * still holds every name of Playwright's.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's suggestion popups, two hidden WebUI pages per window
 * since Chromium 156: with Playwright's switches that keep background pages
 * at full speed they took two thirds of a core while a test waited, and a
 * third of a second per new page (a widget layout test: 88 s of CPU, 60 s without).
 */
const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export async function launchChromium(): Promise<Browser> {
  const executablePath = CANDIDATES.find((path) => existsSync(path));
  if (!executablePath) throw new Error(`Chromium not found (tried ${CANDIDATES.join(', ')}): apt-get install chromium`);
  const browser = await chromium.launch({
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
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_FEATURES].join(',')}`,
    ],
  });
  const dropped = droppedFeatures();
  if (dropped.length > 0) {
    await browser.close();
    throw new Error(
      `Chromium was started with another --disable-features before ours, which replaces it: add ${dropped.join(', ')} to PLAYWRIGHT_DISABLED_FEATURES in test/helpers/browser.ts`,
    );
  }
  return browser;
}

/** Features an earlier --disable-features of a browser this process started names and the last one does not (Linux: /proc). */
function droppedFeatures(): string[] {
  const dropped = new Set<string>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // Ended meanwhile, or no /proc.
    }
    const lists = args
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','));
    const last = new Set(lists.at(-1));
    for (const name of lists.slice(0, -1).flat()) if (name && !last.has(name)) dropped.add(name);
  }
  return [...dropped];
}
