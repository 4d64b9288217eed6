/**
 * What every reliability scenario shares: a check that the test builds exist,
 * the "must hold" verdicts (printed, and the exit code), and small waits.
 * Servers, subscribers, certificates and Redis come from test/helpers and
 * test/reliability/helpers.ts, so the scenarios run the same plumbing as the tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { contentHash } from '../../../src/lib/websub/publish.ts';
import type { HubState } from '../../../src/lib/websub/subscriptions.ts';
import { BUILDS, type BuildName } from '../../../test/helpers/builds.ts';

/** Stops the scenario at once (exit 2) when a build it needs is missing: nothing is built here. */
export function requireBuilds(...names: BuildName[]): void {
  const missing = names.filter((name) => !existsSync(resolve(BUILDS[name].outDir, 'server/entry.mjs')));
  if (missing.length === 0) return;
  console.error(
    `missing test build(s) ${missing.join(', ')} in .test-builds/: run \`node_modules/.bin/node scripts/build-test-sites.ts\` first`,
  );
  process.exit(2);
}

export interface Verdicts {
  /** Records one "must hold": printed as PASS/FAIL with what was measured. */
  check(what: string, ok: boolean, measured: string): void;
  /** Prints a figure that is reported, not judged. */
  figure(what: string, value: string): void;
  /** Prints the summary and sets the exit code: 1 when any check failed. */
  finish(): void;
}

export function verdicts(scenario: string): Verdicts {
  const failed: string[] = [];
  const started = performance.now();
  console.log(`# ${scenario}`);
  return {
    check(what, ok, measured) {
      if (!ok) failed.push(what);
      console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}: ${measured}`);
    },
    figure(what, value) {
      console.log(`      ${what}: ${value}`);
    },
    finish() {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      if (failed.length === 0) console.log(`${scenario}: every must-hold held (${seconds} s)`);
      else console.log(`${scenario}: ${failed.length} must-hold(s) failed (${seconds} s): ${failed.join('; ')}`);
      process.exitCode = failed.length === 0 ? 0 : 1;
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolveSleep) => setTimeout(resolveSleep, ms));

/** Polls `check` every 50 ms until it holds; false (not an exception) after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/**
 * Records what `build` serves for a topic as already distributed, in a store
 * the server has not started on yet: its start-up publish is then
 * "unchanged", and the scenario's own publish is the only fan-out.
 */
export async function recordServedHash(
  state: HubState,
  build: BuildName,
  topic: { id: string; path: string },
): Promise<void> {
  await state.recordHash(topic.id, contentHash(readFileSync(resolve(BUILDS[build].outDir, `client${topic.path}`))), 0);
}
