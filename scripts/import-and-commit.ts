/**
 * The daily Google import (.github/workflows/import-google.yml, docs/editing.md
 * "New Google reviews every day"): `npm run import -- --google`, then what it
 * changed in the content folder published by a commit pushed to the checked-out
 * branch (IMPORT_PUBLISH=commit, the default) or by a pull request from the
 * branch IMPORT_BRANCH (IMPORT_PUBLISH=pull-request). Nothing changed: no
 * commit. The import's memory (content/.import-state.json: the problems it
 * reported, the locations' reviews) is committed with the review files, so the
 * next run, from a fresh checkout, knows them. The import found something new
 * it could not import (status 1): what it did import and its memory are
 * committed all the same (the next run then passes), and the run fails, its
 * report in the log. A setup mistake (status 2) or a killed import: no commit.
 *
 * Exit status: the import's own (0, 1 something new not imported, 2 usage or
 * setup); 2 when the content folder is not in a clean git work tree; 1 when the
 * push or the pull request failed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contentDir as defaultContentDir } from '../src/lib/config/site.ts';
import { MEMORY_FILE } from '../src/lib/import/memory.ts';

const IMPORT = resolve(import.meta.dirname, 'import.ts');
const MODES = ['commit', 'pull-request'] as const;

function stop(message: string, status: number): never {
  process.stderr.write(`import-and-commit: ${message}\n`);
  process.exit(status);
}

const { values } = parseArgs({
  options: { 'content-dir': { type: 'string' } },
  strict: true,
});
const contentDir = resolve(values['content-dir'] ?? defaultContentDir());
const mode = (process.env.IMPORT_PUBLISH?.trim() || 'commit') as (typeof MODES)[number];
if (!MODES.includes(mode)) stop(`IMPORT_PUBLISH must be ${MODES.join(' or ')}, got "${mode}"`, 2);
const prBranch = process.env.IMPORT_BRANCH?.trim() || 'import/google-reviews';

function git(...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

let root: string;
try {
  root = execFileSync('git', ['-C', contentDir, 'rev-parse', '--show-toplevel'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
} catch {
  stop(`${contentDir} is not inside a git work tree: the routine commits what the import changes`, 2);
}
const scope = relative(root, contentDir) || '.';
// An editor's uncommitted change would be swept into the import's commit.
if (git('status', '--porcelain', '--', scope) !== '')
  stop(`${scope} has uncommitted changes; commit or discard them first:\n${git('status', '--short', '--', scope)}`, 2);

const run = spawnSync(process.execPath, [IMPORT, '--google', '--content-dir', contentDir], { stdio: 'inherit' });
// Status 1 has written what it could import and remembered what it reported: that is committed, then the run fails.
const failed = run.status === 1;
if (run.status !== 0 && !failed)
  stop(
    `the import ${run.signal ? `was killed (${run.signal})` : `exited with status ${run.status ?? 1}`}; nothing committed`,
    run.status ?? 1,
  );

if (git('status', '--porcelain', '--', scope) === '') {
  if (failed) stop('the import exited with status 1; nothing committed', 1);
  process.stdout.write('import-and-commit: no new or changed reviews; nothing committed.\n');
  process.exit(0);
}

const base = git('rev-parse', '--abbrev-ref', 'HEAD').trim();
if (mode === 'pull-request') git('switch', '--force-create', prBranch);
git('add', '--all', '--', scope);
const changes = git('diff', '--cached', '--name-status', '--', scope)
  .trim()
  .split('\n')
  .map((line) => line.split('\t') as [string, string]);
const memory = `${scope === '.' ? '' : `${scope}/`}${MEMORY_FILE}`;
const count = (status: string) => changes.filter(([s, file]) => s === status && file !== memory).length;
const counts = [
  [count('A'), 'new'],
  [count('M'), 'updated'],
  [count('D'), 'deleted'],
]
  .filter(([n]) => n !== 0)
  .map(([n, what]) => `${n} ${what}`)
  .join(', ');
const title =
  (counts ? `Google reviews imported: ${counts}` : `Google import: ${MEMORY_FILE} updated`) +
  (failed ? "; new problems reported (the run's log lists them)" : '');
const body = changes.map(([status, file]) => `${{ A: 'new', M: 'updated', D: 'deleted' }[status] ?? status} ${file}`);
git('commit', '--quiet', '--message', title, '--message', body.join('\n'));
process.stdout.write(`import-and-commit: committed "${title}"\n`);

if (mode === 'commit') {
  try {
    git('push', '--quiet', 'origin', `HEAD:${base}`);
  } catch {
    // The branch moved during the run (an editor's commit): the import's files are its own, so they go on top.
    try {
      git('pull', '--quiet', '--rebase', 'origin', base);
      git('push', '--quiet', 'origin', `HEAD:${base}`);
    } catch (error) {
      stop(`the commit could not be pushed to ${base}: ${(error as { stderr?: string }).stderr ?? error}`, 1);
    }
  }
  process.stdout.write(`import-and-commit: pushed to ${base}; the host's build publishes it.\n`);
  if (failed) failedRun();
} else {
  try {
    git('push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${prBranch}`);
  } catch (error) {
    stop(`the branch ${prBranch} could not be pushed: ${(error as { stderr?: string }).stderr ?? error}`, 1);
  }
  await openPullRequest(title, body.join('\n'));
  if (failed) failedRun();
}

/** The import could not import something new: what it did import is committed, and the run fails so its report is read. */
function failedRun(): never {
  stop(
    'the import exited with status 1: something new could not be imported (its report is above); what it imported and the problems it reported are committed, so the next run passes unless something else is new',
    1,
  );
}

/** A pull request of prBranch into base through GitHub's REST API; one already open now holds this import. */
async function openPullRequest(title: string, text: string) {
  const { GITHUB_TOKEN: token, GITHUB_REPOSITORY: repository } = process.env;
  const api = (process.env.GITHUB_API_URL?.trim() || 'https://api.github.com').replace(/\/+$/, '');
  if (!token || !repository) stop('IMPORT_PUBLISH=pull-request needs GITHUB_TOKEN and GITHUB_REPOSITORY', 2);
  let response: Response;
  try {
    response = await fetch(`${api}/repos/${repository}/pulls`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        title,
        head: prBranch,
        base,
        body: `New and changed reviews from the Business Profile API. Merging publishes them.\n\n${text}`,
      }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    stop(`${api} could not be reached to open the pull request: ${(error as Error).message}`, 1);
  }
  const answer = (await response.json().catch(() => ({}))) as {
    html_url?: string;
    message?: string;
    errors?: Array<{ message?: string }>;
  };
  if (response.status === 201) {
    process.stdout.write(`import-and-commit: pull request opened: ${answer.html_url}\n`);
    return;
  }
  const reasons = [answer.message, ...(answer.errors ?? []).map((e) => e.message)].filter(Boolean).join('; ');
  if (response.status === 422 && /pull request already exists/i.test(reasons)) {
    process.stdout.write(`import-and-commit: the open pull request from ${prBranch} now holds this import.\n`);
    return;
  }
  stop(
    `GitHub refused the pull request (HTTP ${response.status}${reasons ? `: ${reasons}` : ''})` +
      (response.status === 403
        ? '; allow it in Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests"'
        : ''),
    1,
  );
}
