/**
 * `npm run cms`: the editors' web form on this computer. Starts Decap's local
 * backend (decap-server's middleware, which reads and writes the review files
 * in this repository's content/reviews/ folder; it commits nothing) inside a
 * guard that lets only the dev site reach it (scripts/cms-guard.ts), and
 * `astro dev`, then prints the address of /admin. Ctrl+C stops both.
 *
 *   npm run cms                      the local backend on 8081 (or a free port), the site on 4321
 *   npm run cms -- --port 4400       another port for the site
 *   npm run cms -- --cms-port 8090   another port for the local backend
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LOCAL_BACKEND_PORT } from '../src/lib/content/cms-config.ts';
import { startCmsGuard } from './cms-guard.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { port: { type: 'string', default: '4321' }, 'cms-port': { type: 'string' } },
});

const cmsPort = values['cms-port'] ? Number(values['cms-port']) : await freePort(DEFAULT_LOCAL_BACKEND_PORT);
const localBackend = `http://127.0.0.1:${cmsPort}/api/v1`;
const children: ChildProcess[] = [];

// decap-server runs inside the guard's own server: no other port to reach it by.
const guard = await startCmsGuard({
  port: cmsPort,
  repository: ROOT,
  origins: [`http://localhost:${values.port}`, `http://127.0.0.1:${values.port}`],
});

const astro = spawn(
  process.execPath,
  [resolve(ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', '--port', values.port],
  {
    cwd: ROOT,
    env: { ...process.env, CMS_LOCAL_BACKEND: localBackend },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
children.push(astro);
astro.stderr.pipe(process.stderr);
let announced = false;
astro.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  const match = /(http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]):\d+)\//.exec(
    chunk.toString().replace(/\x1b\[[0-9;]*m/g, ''),
  );
  if (match && !announced) {
    announced = true;
    console.log(
      `\n  Web form: ${match[1]}/admin/  (click "Login"; saved reviews go to content/reviews/)\n  Local backend: ${localBackend}\n`,
    );
  }
});

for (const child of children) {
  child.once('exit', (code) => {
    console.error(`astro dev stopped (${code ?? 'signal'})`);
    stop(code ?? 0);
  });
}
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

function stop(code: number): void {
  guard.close();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

/** The preferred port when it is free, any free port otherwise (0: any). */
function freePort(preferred: number): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => {
      const other = createServer();
      other.listen(0, '127.0.0.1', () => {
        const { port } = other.address() as { port: number };
        other.close(() => resolvePort(port));
      });
    });
    server.listen(preferred, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
