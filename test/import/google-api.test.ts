/**
 * `npm run import -- --google` against the local stand-in of the Business
 * Profile API (google-stand-in.ts). Google itself cannot be reached from tests.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { manyGoogleReviews } from './exports.ts';
import { startGoogleStandIn, type GoogleStandIn } from './google-stand-in.ts';

const work = mkdtempSync(join(tmpdir(), 'import-google-'));
const reviews = {
  'accounts/1045/locations/11': manyGoogleReviews(120, '11'),
  'accounts/1045/locations/12': manyGoogleReviews(7, '12'),
};
let standIn: GoogleStandIn;
let base: string;
let requests: GoogleStandIn['requests'];

before(async () => {
  standIn = await startGoogleStandIn(reviews);
  standIn.titles['11'] = 'Cedar Ridge Roofing – Tigard';
  ({ base, requests } = standIn);
});
after(async () => {
  await standIn.close();
  rmSync(work, { recursive: true, force: true });
});

function importGoogle(
  content: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [join(ROOT, 'scripts/import.ts'), '--google', '--content-dir', content], {
      env: { PATH: process.env.PATH!, GOOGLE_API_BASE: base, GOOGLE_TOKEN_URL: `${base}/token`, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const LOCATIONS = 'accounts/1045/locations/11, accounts/1045/locations/12';
const REFRESH = {
  GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'secret',
  GOOGLE_REFRESH_TOKEN: 'good-refresh',
};

it('fetches every page of every location with a token from the refresh token, and imports them', async () => {
  const content = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), content, { recursive: true });
  const before = readdirSync(join(content, 'reviews')).length;
  const result = await importGoogle(content, { GOOGLE_LOCATIONS: LOCATIONS, ...REFRESH });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  // A location by its title where the Business Information API gives one, else by its id.
  assert.match(result.stdout, /^Cedar Ridge Roofing – Tigard \(Google location 11\): 120 new/m);
  assert.match(result.stdout, /^Google location 12: 7 new/m);
  assert.equal(readdirSync(join(content, 'reviews')).length, before + 127);
  assert.deepEqual(
    requests.map((r) => r.path),
    [
      '/token',
      '/v4/accounts/1045/locations/11/reviews?pageSize=50',
      '/v4/accounts/1045/locations/11/reviews?pageSize=50&pageToken=50',
      '/v4/accounts/1045/locations/11/reviews?pageSize=50&pageToken=100',
      '/v1/locations/11?readMask=title',
      '/v4/accounts/1045/locations/12/reviews?pageSize=50',
      '/v1/locations/12?readMask=title',
    ],
  );
  assert.match(requests[0]!.body!, /grant_type=refresh_token/);
  assert.ok(requests.slice(1).every((r) => r.auth === 'Bearer ya29.fresh'));

  // Fetched again: nothing changes.
  const again = await importGoogle(content, { GOOGLE_LOCATIONS: LOCATIONS, GOOGLE_ACCESS_TOKEN: 'ya29.fresh' });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 new, 0 updated, 127 unchanged/);
});

it('a refused token, an expired access token, a missing setting: exit status 1 and what to fix; nothing written', async () => {
  const content = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), content, { recursive: true });
  const files = readdirSync(join(content, 'reviews')).length;
  const refused = await importGoogle(content, {
    GOOGLE_LOCATIONS: LOCATIONS,
    ...REFRESH,
    GOOGLE_REFRESH_TOKEN: 'revoked',
  });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /the refresh token was refused \(invalid_grant: Token has been expired or revoked\.\)/);
  const expired = await importGoogle(content, { GOOGLE_LOCATIONS: LOCATIONS, GOOGLE_ACCESS_TOKEN: 'ya29.old' });
  assert.equal(expired.status, 1);
  assert.match(
    expired.stderr,
    /accounts\/1045\/locations\/11: page 1: HTTP 401, the access token was refused: Request had invalid authentication credentials\./,
  );
  const unknown = await importGoogle(content, {
    GOOGLE_LOCATIONS: 'accounts/1045/locations/99',
    GOOGLE_ACCESS_TOKEN: 'ya29.fresh',
  });
  assert.match(unknown.stderr, /HTTP 404, no such location/);
  const unset = await importGoogle(content, { GOOGLE_ACCESS_TOKEN: 'ya29.fresh' });
  assert.match(unset.stderr, /GOOGLE_LOCATIONS is not set/);
  const noCredentials = await importGoogle(content, { GOOGLE_LOCATIONS: LOCATIONS });
  assert.match(noCredentials.stderr, /no Google credentials/);
  assert.equal(readdirSync(join(content, 'reviews')).length, files);
});
