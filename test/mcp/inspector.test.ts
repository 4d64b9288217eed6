/**
 * The MCP Inspector's CLI (a client we did not write) lists and calls the tools
 * over streamable HTTP.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { tempDir } from './helpers.ts';

const BIN = resolve(ROOT, 'node_modules/.bin/mcp-inspector-cli');
/**
 * inspector-cli 1.0.3 finds its own package.json by a path relative to the
 * working directory (`../package.json`) but imports it relative to its module:
 * run it from its build folder, where both agree. It spawns `node` from PATH:
 * put Node 24 (node_modules/.bin) first.
 */
const CWD = resolve(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');

let server: RunningServer;
const store = tempDir('mcp-inspector-');
before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
});
after(async () => {
  await server?.stop();
  store.remove();
});

function inspector(args: string[]): Promise<any> {
  return new Promise((resolveRun, reject) => {
    execFile(
      BIN,
      ['--cli', `${server.url}/mcp`, '--transport', 'http', ...args],
      {
        cwd: CWD,
        timeout: 30_000,
        env: {
          ...process.env,
          PATH: `${dirname(process.execPath)}:${resolve(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
        },
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`inspector failed: ${error.message}\n${stdout}\n${stderr}`));
        try {
          resolveRun(JSON.parse(stdout));
        } catch {
          reject(new Error(`inspector printed no JSON:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

describe('MCP Inspector CLI', () => {
  it('tools/list shows the read-only tools; tools/call answers like the REST API', async () => {
    const { tools } = await inspector(['--method', 'tools/list']);
    const hasInsights = (await fetch(`${server.url}/insights.json`)).status === 200;
    const expected = [
      'get_business',
      'get_review',
      'reviews_since',
      'search_reviews',
      ...(hasInsights ? ['get_insights'] : []),
      'search',
      'fetch',
    ].sort();
    assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), expected);
    for (const tool of tools) assert.equal(tool.annotations.readOnlyHint, true);

    const result = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'search_reviews',
      '--tool-arg',
      'rating=5',
      'limit=3',
    ]);
    const rest = await (await fetch(`${server.url}/api/reviews/search?rating=5&limit=3`)).json();
    assert.deepEqual(result.structuredContent, rest);
  });
});
