/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned
 * in package.json at a version with per-revision requirement sets) against the
 * real built server, for each revision /mcp serves sessionful (2025-11-25) and
 * sessionless (2026-07-28), over the scenarios that fit a read-only tools,
 * resources and prompts server. docs/mcp.md lists the scenarios left out and why.
 *
 * Every check must pass, except the few listed in KNOWN below (each names the
 * suite's own diagnostic fixture we do not, and should not, serve) and the
 * SKIPPED ones the suite itself skips for a server without list changes. A
 * known failure that starts passing fails this test too, so the list stays true.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { tempDir } from './helpers.ts';

const CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const SCENARIOS: Record<string, string[]> = {
  '2025-11-25': [
    'server-initialize',
    'ping',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'dns-rebinding-protection',
    'server-session-lifecycle',
  ],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'caching',
    'http-header-validation',
    'sep-2164-resource-not-found',
    'dns-rebinding-protection',
  ],
};

/** `scenario:check` → why it fails here: the suite's own fixtures, not this server. */
const KNOWN: Record<string, Record<string, string>> = {
  '2025-11-25': {},
  '2026-07-28': {
    'server-stateless:sep-2575-server-rejects-undeclared-capability':
      "needs the suite's diagnostic tool test_missing_capability",
    'server-stateless:sep-2575-missing-capability-http-400':
      "needs the suite's diagnostic tool test_missing_capability",
    'server-stateless:sep-2575-http-server-no-independent-requests-on-stream':
      "needs the suite's diagnostic tool test_streaming_elicitation",
    'server-stateless:sep-2575-server-no-log-without-loglevel': "needs the suite's diagnostic tool test_logging_tool",
  },
};

/** Checks the suite skips here by its own rules: they apply to servers that declare what we do not. */
const SKIPPED: Record<string, string> = {
  'server-stateless:sep-2575-server-sends-prompts-list-changed-on-subscription':
    'no listChanged: the prompt list changes only with a deploy',
  'server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription':
    'no listChanged: the tool list changes only with a deploy',
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let server: RunningServer;
const store = tempDir('mcp-conformance-');
const output = tempDir('mcp-conformance-out-');

before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
});
after(async () => {
  await server?.stop();
  store.remove();
  output.remove();
});

/** Runs one scenario at one revision; the checks it recorded. */
function run(revision: string, scenario: string): Promise<Check[]> {
  const dir = join(output.path, `${revision}-${scenario}`);
  const args = [
    CLI,
    'server',
    '--url',
    `${server.url}/mcp`,
    '--scenario',
    scenario,
    '--spec-version',
    revision,
    '-o',
    dir,
  ];
  return new Promise((resolveRun, reject) => {
    execFile(NODE, args, { cwd: ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      // A failing check exits 1: the checks decide, so only a missing result is an error here.
      try {
        const [folder] = readdirSync(dir);
        resolveRun(JSON.parse(readFileSync(join(dir, folder!, 'checks.json'), 'utf8')) as Check[]);
      } catch {
        reject(
          new Error(
            `conformance ${scenario} at ${revision} left no checks.json (${error?.message}):\n${stdout}\n${stderr}`,
          ),
        );
      }
    });
  });
}

for (const [revision, scenarios] of Object.entries(SCENARIOS)) {
  describe(`conformance at ${revision}`, () => {
    for (const scenario of scenarios) {
      it(scenario, async () => {
        const checks = await run(revision, scenario);
        assert.ok(checks.length > 0, `${scenario} recorded no checks`);
        const unexpected: string[] = [];
        for (const check of checks) {
          const key = `${scenario}:${check.id}`;
          const known = KNOWN[revision]![key];
          if (known && check.status === 'SUCCESS') unexpected.push(`${key} passes now: remove it from KNOWN`);
          if (check.status === 'SKIPPED' && SKIPPED[key]) continue;
          if (!known && check.status !== 'SUCCESS')
            unexpected.push(`${key}: ${check.status} ${check.errorMessage ?? ''}`);
        }
        for (const key of Object.keys(KNOWN[revision]!).filter((key) => key.startsWith(`${scenario}:`))) {
          if (!checks.some((check) => `${scenario}:${check.id}` === key))
            unexpected.push(`${key} was not run: remove it from KNOWN`);
        }
        assert.deepEqual(unexpected, []);
      });
    }
  });
}
