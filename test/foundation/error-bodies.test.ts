/**
 * A 400 stays small whatever the client sends: at most 20 issues, one per
 * unknown parameter, names clipped, and a last issue counting what was left out.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { MAX_ISSUES } from '../../src/lib/http/issues.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => (server = await startServer('small')));
after(() => server?.stop());

it('1,800 unknown parameters: a 400 of 20 issues and a count of the rest, under 4 KB', async () => {
  const query = Array.from({ length: 1800 }, (_, i) => `p${i}=1`).join('&');
  for (const path of [`/api/reviews/search?${query}`, `/api/reviews/since/2024-01-01?${query}`]) {
    const response = await fetch(server.url + path);
    assert.equal(response.status, 400, path);
    const text = await response.text();
    assert.ok(text.length < 4096, `${path}: ${text.length} bytes`);
    const body = JSON.parse(text);
    assert.equal(body.issues.length, MAX_ISSUES + 1);
    assert.deepEqual(body.issues[0].path, ['p0']);
    assert.match(body.issues[0].message, /^unknown parameter "p0"/);
    assert.deepEqual(body.issues.at(-1), {
      code: 'too_many_issues',
      path: [],
      message: `${1800 - MAX_ISSUES} more problems not listed: fix these first`,
    });
  }
});

it('a 5,000-character parameter name is clipped in the path and the message', async () => {
  const name = 'x'.repeat(5000);
  const response = await fetch(`${server.url}/api/reviews/search?${name}=1`);
  assert.equal(response.status, 400);
  const text = await response.text();
  assert.ok(text.length < 1024, `${text.length} bytes`);
  const [issue] = JSON.parse(text).issues;
  assert.equal(issue.path[0], `${'x'.repeat(63)}…`);
});
