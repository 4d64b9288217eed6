/**
 * The daily routine's script (scripts/import-and-commit.ts) end to end: a real
 * git repository holding a copy of the real content/, pushed to a real bare
 * remote, the import against the local stand-in of the Business Profile API,
 * and a stand-in of GitHub's "create a pull request" endpoint.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { googleReview, manyGoogleReviews } from '../import/exports.ts';
import { startGoogleStandIn, type GoogleStandIn } from '../import/google-stand-in.ts';

const work = mkdtempSync(join(tmpdir(), 'import-routine-'));
const LOCATION = 'accounts/1045/locations/11';
let google: GoogleStandIn;
const pulls: Array<{ auth?: string; body: Record<string, unknown> }> = [];
let pullAnswer: { status: number; body: unknown } = {
  status: 201,
  body: { html_url: 'https://github.example/o/r/pull/7' },
};
const github = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  if (req.method !== 'POST' || req.url !== '/repos/cedar/reviews/pulls') {
    res.writeHead(404).end('{"message":"Not Found"}');
    return;
  }
  pulls.push({ ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body: JSON.parse(body) });
  res.writeHead(pullAnswer.status, { 'content-type': 'application/json' }).end(JSON.stringify(pullAnswer.body));
});
let githubBase: string;

before(async () => {
  google = await startGoogleStandIn({});
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
  githubBase = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
});
after(async () => {
  await google.close();
  github.close();
  rmSync(work, { recursive: true, force: true });
});

const IDENTITY = {
  GIT_AUTHOR_NAME: 'github-actions[bot]',
  GIT_AUTHOR_EMAIL: 'bot@example.test',
  GIT_COMMITTER_NAME: 'github-actions[bot]',
  GIT_COMMITTER_EMAIL: 'bot@example.test',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, ...IDENTITY },
  });
}

/** A repository as the workflow checks it out: main with the real content/, tracking a bare remote. */
function checkout(name: string): { repo: string; remote: string } {
  const remote = join(work, `${name}.git`);
  const repo = join(work, name);
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', repo]);
  cpSync(join(ROOT, 'content'), join(repo, 'content'), { recursive: true });
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '--message', 'content');
  git(repo, 'remote', 'add', 'origin', remote);
  git(repo, 'push', '--quiet', '--set-upstream', 'origin', 'main');
  return { repo, remote };
}

function routine(
  repo: string,
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [join(ROOT, 'scripts/import-and-commit.ts'), '--content-dir', join(repo, 'content')], {
      cwd: repo,
      env: {
        PATH: process.env.PATH!,
        ...IDENTITY,
        GOOGLE_API_BASE: google.base,
        GOOGLE_TOKEN_URL: `${google.base}/token`,
        GOOGLE_LOCATIONS: LOCATION,
        GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 'secret',
        GOOGLE_REFRESH_TOKEN: 'good-refresh',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const log = (remote: string, ref = 'main') => git(remote, 'log', '--format=%s', ref).trim().split('\n');
const changed = (remote: string, ref = 'main') =>
  git(remote, 'show', '--name-status', '--format=', ref).trim().split('\n').sort();

it('commits and pushes the new reviews; nothing when nothing changed; the changed one when Google changes one', async () => {
  const { repo, remote } = checkout('commit');
  const reviews = manyGoogleReviews(3, '11');
  google.reviews[LOCATION] = reviews;

  const first = await routine(repo);
  assert.equal(first.status, 0, first.stdout + first.stderr);
  assert.match(first.stdout, /^Google location 11: 3 new, 0 updated, 0 unchanged, 0 skipped$/m);
  assert.match(first.stdout, /committed "Google reviews imported: 3 new"/);
  assert.deepEqual(log(remote), ['Google reviews imported: 3 new', 'content']);
  // The three reviews, and the import's memory of which location they came from.
  const added = changed(remote);
  assert.equal(added.length, 4);
  assert.equal(added[0], 'A\tcontent/.import-state.json');
  assert.ok(
    added.slice(1).every((line) => /^A\tcontent\/reviews\/[a-z0-9-]+\.md$/.test(line)),
    added.join('\n'),
  );
  assert.equal(git(repo, 'status', '--porcelain'), '');

  const again = await routine(repo);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 new, 0 updated, 3 unchanged/);
  assert.match(again.stdout, /no new or changed reviews; nothing committed/);
  assert.equal(log(remote).length, 2);

  reviews[1] = {
    ...reviews[1]!,
    comment: 'Found the leak, and came back to check it.',
    updateTime: '2026-11-28T10:00:00Z',
  };
  const edited = await routine(repo);
  assert.equal(edited.status, 0, edited.stderr);
  assert.equal(log(remote)[0], 'Google reviews imported: 1 updated');
  assert.deepEqual(
    changed(remote).map((l) => l.slice(0, 2)),
    ['M\t'],
  );
});

it('a record that cannot be imported fails one run, not every run: its memory committed, the next run passes and lists it as known', async () => {
  const { repo, remote } = checkout('known');
  const unrated = (id: string) => ({ ...googleReview('1045', '11', id), starRating: 'STAR_RATING_UNSPECIFIED' });
  const reviews = [...manyGoogleReviews(3, '11'), unrated('bad1')];
  google.reviews[LOCATION] = reviews;

  const first = await routine(repo);
  assert.equal(first.status, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /^ {2}record 4, starRating: no star rating \(STAR_RATING_UNSPECIFIED\)/m);
  assert.match(first.stdout, /1 file not imported; 1 new problem\.$/m);
  assert.match(first.stderr, /something new could not be imported/);
  // Nothing of the location is written, but what the run reported is remembered, and committed.
  assert.deepEqual(log(remote), [
    "Google import: .import-state.json updated; new problems reported (the run's log lists them)",
    'content',
  ]);
  assert.deepEqual(changed(remote), ['A\tcontent/.import-state.json']);
  assert.equal(git(repo, 'status', '--porcelain'), '');

  const second = await routine(repo);
  assert.equal(second.status, 0, second.stdout + second.stderr);
  assert.match(
    second.stdout,
    /^ {2}skipped {3}record 4: starRating: no star rating .*\(known: reported by an earlier import\)$/m,
  );
  assert.match(second.stdout, /^3 new, 0 updated, 0 unchanged, 1 skipped; 1 known problem/m);
  assert.equal(log(remote)[0], 'Google reviews imported: 3 new');
  assert.equal(changed(remote).length, 4, changed(remote).join('\n'));
  assert.ok(changed(remote).includes('M\tcontent/.import-state.json'));

  // The same list again: nothing changed, the memory neither: no commit.
  const third = await routine(repo);
  assert.equal(third.status, 0, third.stdout + third.stderr);
  assert.match(third.stdout, /known: reported by an earlier import/);
  assert.match(third.stdout, /no new or changed reviews; nothing committed/);
  assert.equal(log(remote).length, 3);

  // A new record with a problem fails the run again; the known one does not.
  reviews.push(unrated('bad2'));
  const fourth = await routine(repo);
  assert.equal(fourth.status, 1, fourth.stdout + fourth.stderr);
  assert.match(fourth.stdout, /1 new problem; 1 known problem/);
  assert.equal((await routine(repo)).status, 0);
});

it('a failed import fails the run with its report, commits nothing and pushes nothing', async () => {
  const { repo, remote } = checkout('failed');
  google.reviews[LOCATION] = manyGoogleReviews(2, '11');
  const refused = await routine(repo, { GOOGLE_REFRESH_TOKEN: 'revoked' });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /the refresh token was refused \(invalid_grant/);
  assert.match(refused.stderr, /the import exited with status 1; nothing committed/);
  const unset = await routine(repo, { GOOGLE_LOCATIONS: '' });
  assert.notEqual(unset.status, 0);
  assert.match(unset.stderr, /GOOGLE_LOCATIONS is not set/);
  assert.deepEqual(log(remote), ['content']);
  assert.deepEqual(log(repo), ['content']);
  assert.equal(git(repo, 'status', '--porcelain'), '');
});

it('refuses a content folder with uncommitted edits (they would ride in the import commit), and a folder outside git', async () => {
  const { repo, remote } = checkout('dirty');
  google.reviews[LOCATION] = manyGoogleReviews(2, '11');
  const review = join(repo, 'content/reviews', readdirSync(join(repo, 'content/reviews'))[0]!);
  appendFileSync(review, '\nAn unsaved thought.\n');
  const dirty = await routine(repo);
  assert.equal(dirty.status, 2);
  assert.match(dirty.stderr, /content has uncommitted changes/);
  assert.deepEqual(log(remote), ['content']);

  const loose = mkdtempSync(join(tmpdir(), 'import-routine-loose-'));
  cpSync(join(ROOT, 'content'), join(loose, 'content'), { recursive: true });
  const outside = await routine(loose);
  rmSync(loose, { recursive: true, force: true });
  assert.equal(outside.status, 2);
  assert.match(outside.stderr, /is not inside a git work tree/);
});

it('an editor pushed while the import ran: the import goes on top of their commit', async () => {
  const { repo, remote } = checkout('moved');
  google.reviews[LOCATION] = manyGoogleReviews(2, '11');
  const editor = join(work, 'moved-editor');
  execFileSync('git', ['clone', '--quiet', remote, editor]);
  appendFileSync(join(editor, 'content/business.yaml'), '# a note\n');
  git(editor, 'commit', '--quiet', '--all', '--message', 'an editor');
  git(editor, 'push', '--quiet', 'origin', 'main');

  const result = await routine(repo);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.deepEqual(log(remote), ['Google reviews imported: 2 new', 'an editor', 'content']);
});

it('IMPORT_PUBLISH=pull-request: the branch pushed and a pull request opened; the next run updates the same one', async () => {
  const { repo, remote } = checkout('pull');
  const reviews = manyGoogleReviews(2, '11');
  google.reviews[LOCATION] = reviews;
  const env = {
    IMPORT_PUBLISH: 'pull-request',
    GITHUB_API_URL: githubBase,
    GITHUB_REPOSITORY: 'cedar/reviews',
    GITHUB_TOKEN: 'ghs_test',
  };
  const first = await routine(repo, env);
  assert.equal(first.status, 0, first.stdout + first.stderr);
  assert.match(first.stdout, /pull request opened: https:\/\/github\.example\/o\/r\/pull\/7/);
  assert.deepEqual(log(remote), ['content']);
  assert.deepEqual(log(remote, 'import/google-reviews'), ['Google reviews imported: 2 new', 'content']);
  assert.equal(pulls.length, 1);
  assert.equal(pulls[0]!.auth, 'Bearer ghs_test');
  assert.equal(pulls[0]!.body.head, 'import/google-reviews');
  assert.equal(pulls[0]!.body.base, 'main');
  assert.equal(pulls[0]!.body.title, 'Google reviews imported: 2 new');
  assert.match(String(pulls[0]!.body.body), /new content\/reviews\/.+\.md/);

  // Not merged yet; a new review arrives. The branch is made again from main with all three.
  git(repo, 'switch', '--quiet', 'main');
  reviews.push(...manyGoogleReviews(3, '11').slice(2));
  pullAnswer = {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ message: 'A pull request already exists for cedar:import/google-reviews.' }],
    },
  };
  const second = await routine(repo, env);
  assert.equal(second.status, 0, second.stdout + second.stderr);
  assert.match(second.stdout, /the open pull request from import\/google-reviews now holds this import/);
  assert.deepEqual(log(remote, 'import/google-reviews'), ['Google reviews imported: 3 new', 'content']);

  git(repo, 'switch', '--quiet', 'main');
  reviews.push(...manyGoogleReviews(4, '11').slice(3));
  pullAnswer = {
    status: 403,
    body: { message: 'GitHub Actions is not permitted to create or approve pull requests.' },
  };
  const refused = await routine(repo, env);
  assert.equal(refused.status, 1);
  assert.match(
    refused.stderr,
    /HTTP 403: GitHub Actions is not permitted.*Allow GitHub Actions to create and approve pull requests/,
  );
});
