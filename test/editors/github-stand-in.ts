/**
 * A local stand-in of GitHub for the web form's tests: its OAuth web flow
 * (authorize, which approves at once, and the code-for-token exchange, which
 * checks the client secret) and the parts of its REST API that Decap's GitHub
 * backend uses to log in, list, read and commit files (git blobs, trees,
 * commits and refs), over an in-memory repository.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';

type GitObject =
  | { type: 'blob'; content: Buffer }
  | { type: 'tree'; entries: TreeEntry[] }
  | {
      type: 'commit';
      tree: string;
      parents: string[];
      message: string;
      author: { name: string; email: string; date: string };
    };
interface TreeEntry {
  path: string;
  mode: string;
  type: 'blob' | 'tree';
  sha: string;
}

export interface StandInOptions {
  clientId: string;
  clientSecret: string;
  repo: string;
  branch: string;
  /** Files of the repository at the start: path → content. */
  files: Record<string, string>;
}

export interface GitHubStandIn {
  url: string;
  apiRoot: string;
  /** Commits made through the API, oldest first. */
  commits: Array<{ sha: string; message: string; files: Record<string, string> }>;
  /** Requests the stand-in does not know (a failing test shows them). */
  unknown: string[];
  /** The OAuth requests, in order. */
  oauth: string[];
  /** The file at `path` on the branch now. */
  file(path: string): string | undefined;
  close(): Promise<void>;
}

const TOKEN = 'gho_standin_token_0123456789';
const USER = { login: 'office-editor', id: 4242, name: 'Office Editor', avatar_url: '', type: 'User' };

/** Reads a folder into `prefix/…` paths, for StandInOptions.files. */
export function filesOf(dir: string, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesOf(path, `${prefix}/${name}`));
    else out[`${prefix}/${name}`] = readFileSync(path, 'utf8');
  }
  return out;
}

export async function startGitHubStandIn(options: StandInOptions): Promise<GitHubStandIn> {
  const objects = new Map<string, GitObject>();
  const refs = new Map<string, string>();
  const codes = new Map<string, { redirect: string }>();
  const unknown: string[] = [];
  const oauth: string[] = [];
  const commits: GitHubStandIn['commits'] = [];

  const put = (object: GitObject): string => {
    const body =
      object.type === 'blob'
        ? object.content
        : Buffer.from(JSON.stringify(object.type === 'tree' ? object.entries : object));
    const sha = createHash('sha1').update(`${object.type} ${body.length}\0`).update(body).digest('hex');
    objects.set(sha, object);
    return sha;
  };
  /** A tree from path → blob sha, nested by folder. */
  const treeOf = (blobs: Map<string, string>): string => {
    const here: TreeEntry[] = [];
    const folders = new Map<string, Map<string, string>>();
    for (const [path, sha] of blobs) {
      const slash = path.indexOf('/');
      if (slash < 0) here.push({ path, mode: '100644', type: 'blob', sha });
      else {
        const folder = path.slice(0, slash);
        if (!folders.has(folder)) folders.set(folder, new Map());
        folders.get(folder)!.set(path.slice(slash + 1), sha);
      }
    }
    for (const [folder, inner] of folders)
      here.push({ path: folder, mode: '040000', type: 'tree', sha: treeOf(inner) });
    here.sort((a, b) => (a.path < b.path ? -1 : 1));
    return put({ type: 'tree', entries: here });
  };
  /** Every blob under a tree: path → sha. */
  const flatten = (treeSha: string, prefix = ''): Map<string, string> => {
    const out = new Map<string, string>();
    const tree = objects.get(treeSha);
    if (tree?.type !== 'tree') return out;
    for (const entry of tree.entries) {
      if (entry.type === 'blob') out.set(prefix + entry.path, entry.sha);
      else for (const [path, sha] of flatten(entry.sha, `${prefix}${entry.path}/`)) out.set(path, sha);
    }
    return out;
  };
  const commitTree = (commitSha: string) => (objects.get(commitSha) as Extract<GitObject, { type: 'commit' }>).tree;
  const subtree = (treeSha: string, path: string): string | undefined => {
    let sha: string | undefined = treeSha;
    for (const part of path.split('/').filter(Boolean)) {
      const tree: GitObject | undefined = sha ? objects.get(sha) : undefined;
      sha =
        tree?.type === 'tree'
          ? tree.entries.find((e: TreeEntry) => e.path === part && e.type === 'tree')?.sha
          : undefined;
    }
    return sha;
  };
  const resolveTreeish = (treeish: string): string | undefined => {
    const [ref, path = ''] = treeish.split(':');
    const commit = refs.get(`heads/${ref}`) ?? (objects.get(ref!)?.type === 'commit' ? ref : undefined);
    const root = commit ? commitTree(commit) : objects.get(ref!)?.type === 'tree' ? ref : undefined;
    return root ? subtree(root, path) : undefined;
  };

  const initial = new Map(
    Object.entries(options.files).map(([path, content]) => [
      path,
      put({ type: 'blob', content: Buffer.from(content) }),
    ]),
  );
  const first = put({
    type: 'commit',
    tree: treeOf(initial),
    parents: [],
    message: 'Initial content',
    author: { name: 'Owner', email: 'owner@example.com', date: '2026-11-01T00:00:00Z' },
  });
  refs.set(`heads/${options.branch}`, first);

  const repoPath = `/api/repos/${options.repo}`;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, {
        'content-type': type,
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'link, x-oauth-scopes',
        'cache-control': 'no-store',
      });
      res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE',
        'access-control-allow-headers': 'authorization, content-type, accept, cache-control, if-none-match',
        'access-control-max-age': '600',
      });
      return res.end();
    }
    const body = req.method === 'GET' ? {} : await readJson(req);

    // OAuth web flow.
    if (url.pathname === '/login/oauth/authorize') {
      oauth.push(`authorize ${url.searchParams.get('scope')}`);
      if (url.searchParams.get('client_id') !== options.clientId) return send(400, 'unknown client_id', 'text/plain');
      const redirect = url.searchParams.get('redirect_uri') ?? '';
      const code = `code-${codes.size + 1}`;
      codes.set(code, { redirect });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      const { client_id, client_secret, code, redirect_uri } = body as Record<string, string>;
      oauth.push('access_token');
      const issued = codes.get(code);
      if (client_id !== options.clientId || client_secret !== options.clientSecret)
        return send(200, { error: 'incorrect_client_credentials' });
      if (!issued || issued.redirect !== redirect_uri) return send(200, { error: 'bad_verification_code' });
      codes.delete(code);
      return send(200, { access_token: TOKEN, token_type: 'bearer', scope: 'repo' });
    }

    // REST API: every call carries the token.
    if (!url.pathname.startsWith('/api/')) return notKnown();
    if (req.headers.authorization !== `token ${TOKEN}` && req.headers.authorization !== `Bearer ${TOKEN}`)
      return send(401, { message: 'Bad credentials' });
    const branchHead = () => refs.get(`heads/${options.branch}`)!;

    if (req.method === 'GET' && url.pathname === '/api/user') return send(200, USER);
    if (req.method === 'GET' && url.pathname === repoPath)
      return send(200, {
        full_name: options.repo,
        name: options.repo.split('/')[1],
        owner: { login: options.repo.split('/')[0], type: 'Organization' },
        default_branch: options.branch,
        private: true,
        permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
      });
    if (req.method === 'GET' && url.pathname === `${repoPath}/collaborators/${USER.login}/permission`)
      return send(200, { permission: 'write', user: USER });
    const branch = new RegExp(`^${repoPath}/branches/([^/]+)$`).exec(url.pathname);
    if (req.method === 'GET' && branch) {
      const head = refs.get(`heads/${decodeURIComponent(branch[1]!)}`);
      if (!head) return send(404, { message: 'Branch not found' });
      return send(200, { name: branch[1], commit: { sha: head, commit: { tree: { sha: commitTree(head) } } } });
    }
    const ref = new RegExp(`^${repoPath}/git/refs/(heads/[^/]+)$`).exec(url.pathname);
    if (ref && req.method === 'GET') {
      const head = refs.get(ref[1]!);
      return head
        ? send(200, { ref: `refs/${ref[1]}`, object: { sha: head, type: 'commit' } })
        : send(404, { message: 'Not Found' });
    }
    if (ref && req.method === 'PATCH') {
      const { sha } = body as { sha: string };
      const parent = (objects.get(sha) as Extract<GitObject, { type: 'commit' }> | undefined)?.parents[0];
      if (!(body as { force?: boolean }).force && parent !== refs.get(ref[1]!))
        return send(422, { message: 'Update is not a fast forward' });
      refs.set(ref[1]!, sha);
      const commit = objects.get(sha) as Extract<GitObject, { type: 'commit' }>;
      const files = Object.fromEntries(
        [...flatten(commit.tree)].map(([path, blob]) => [
          path,
          (objects.get(blob) as Extract<GitObject, { type: 'blob' }>).content.toString('utf8'),
        ]),
      );
      commits.push({ sha, message: commit.message, files });
      return send(200, { ref: `refs/${ref[1]}`, object: { sha, type: 'commit' } });
    }
    const tree = new RegExp(`^${repoPath}/git/trees/(.+)$`).exec(url.pathname);
    if (tree && req.method === 'GET') {
      const sha = resolveTreeish(decodeURIComponent(tree[1]!));
      if (!sha) return send(404, { message: 'Not Found' });
      const recursive = url.searchParams.has('recursive');
      const entries = recursive
        ? [...flatten(sha)].map(([path, blob]) => ({
            path,
            mode: '100644',
            type: 'blob',
            sha: blob,
            size: blobSize(blob),
          }))
        : (objects.get(sha) as Extract<GitObject, { type: 'tree' }>).entries.map((e) => ({
            ...e,
            ...(e.type === 'blob' ? { size: blobSize(e.sha) } : {}),
          }));
      return send(200, { sha, tree: entries, truncated: false });
    }
    const blob = new RegExp(`^${repoPath}/git/blobs/([0-9a-f]{40})$`).exec(url.pathname);
    if (blob && req.method === 'GET') {
      const object = objects.get(blob[1]!);
      if (object?.type !== 'blob') return send(404, { message: 'Not Found' });
      if ((req.headers.accept ?? '').includes('raw')) return send(200, object.content, 'application/vnd.github.v3.raw');
      return send(200, {
        sha: blob[1],
        size: object.content.length,
        content: object.content.toString('base64'),
        encoding: 'base64',
      });
    }
    if (req.method === 'POST' && url.pathname === `${repoPath}/git/blobs`) {
      const { content, encoding } = body as { content: string; encoding?: string };
      const sha = put({ type: 'blob', content: Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8') });
      return send(201, { sha, url: `${repoPath}/git/blobs/${sha}` });
    }
    if (req.method === 'POST' && url.pathname === `${repoPath}/git/trees`) {
      const { base_tree, tree: changes } = body as {
        base_tree?: string;
        tree: Array<{ path: string; sha?: string | null; content?: string; type?: string }>;
      };
      const files = base_tree ? flatten(base_tree) : new Map<string, string>();
      for (const change of changes) {
        if (change.sha === null) {
          for (const path of [...files.keys()])
            if (path === change.path || path.startsWith(`${change.path}/`)) files.delete(path);
        } else if (change.content !== undefined)
          files.set(change.path, put({ type: 'blob', content: Buffer.from(change.content) }));
        else if (change.type === 'tree') {
          for (const [path, sha] of flatten(change.sha!)) files.set(`${change.path}/${path}`, sha);
        } else files.set(change.path, change.sha!);
      }
      const sha = treeOf(files);
      return send(201, { sha, tree: (objects.get(sha) as Extract<GitObject, { type: 'tree' }>).entries });
    }
    if (req.method === 'POST' && url.pathname === `${repoPath}/git/commits`) {
      const {
        message,
        tree: treeSha,
        parents,
        author,
      } = body as {
        message: string;
        tree: string;
        parents: string[];
        author?: { name: string; email: string; date?: string };
      };
      const sha = put({
        type: 'commit',
        tree: treeSha,
        parents,
        message,
        author: {
          name: author?.name ?? USER.name,
          email: author?.email ?? '',
          date: author?.date ?? '2026-11-25T00:00:00Z',
        },
      });
      return send(201, { sha, tree: { sha: treeSha }, message, parents: parents.map((p) => ({ sha: p })) });
    }
    if (req.method === 'GET' && url.pathname === `${repoPath}/commits`) {
      const head = branchHead();
      const commit = objects.get(head) as Extract<GitObject, { type: 'commit' }>;
      return send(200, [
        {
          sha: head,
          commit: { message: commit.message, author: commit.author, committer: commit.author },
          author: USER,
          committer: USER,
        },
      ]);
    }
    const contents = new RegExp(`^${repoPath}/contents/(.+)$`).exec(url.pathname);
    if (contents && req.method === 'GET') {
      const path = decodeURIComponent(contents[1]!).replace(/\/+$/, '');
      const files = flatten(commitTree(branchHead()));
      const sha = files.get(path);
      if (sha) {
        const object = objects.get(sha) as Extract<GitObject, { type: 'blob' }>;
        return send(200, {
          type: 'file',
          path,
          name: path.split('/').at(-1),
          sha,
          size: object.content.length,
          content: object.content.toString('base64'),
          encoding: 'base64',
        });
      }
      const listed = [...files].filter(([p]) => p.startsWith(`${path}/`) && !p.slice(path.length + 1).includes('/'));
      if (listed.length === 0) return send(404, { message: 'Not Found' });
      return send(
        200,
        listed.map(([p, s]) => ({ type: 'file', path: p, name: p.split('/').at(-1), sha: s, size: blobSize(s) })),
      );
    }
    return notKnown();

    function notKnown() {
      unknown.push(`${req.method} ${url.pathname}${url.search}`);
      send(404, { message: 'Not Found (stand-in)' });
    }
  });
  const blobSize = (sha: string) =>
    (objects.get(sha) as Extract<GitObject, { type: 'blob' }> | undefined)?.content.length ?? 0;

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    apiRoot: `${url}/api`,
    commits,
    unknown,
    oauth,
    file(path) {
      const sha = flatten(commitTree(refs.get(`heads/${options.branch}`)!)).get(path);
      return sha ? (objects.get(sha) as Extract<GitObject, { type: 'blob' }>).content.toString('utf8') : undefined;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

export type { ServerResponse };
