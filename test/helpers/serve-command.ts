/**
 * How production starts the Node server: package.json's `serve` script
 * (`npm start` runs it), read here so that tests and benchmarks start
 * src/server.ts with exactly the same Node flags and the flags live in one
 * place. V8's heap sizes cannot be set by the server itself once it runs, nor
 * all through NODE_OPTIONS, so they are on that command line.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

const PackageJson = z.object({ scripts: z.object({ serve: z.string() }) });

/** The Node flags of `npm run serve` in the checkout at `root` (e.g. `--max-semi-space-size=16`). */
export function productionNodeFlags(root: string): string[] {
  const { serve } = PackageJson.parse(JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'))).scripts;
  // Only the shape `node [--flag…] src/server.ts`: anything else (a wrapper, an env assignment) would be dropped silently here.
  const match = /^node((?:\s+--[^\s]+)*)\s+src\/server\.ts$/.exec(serve.trim());
  if (!match) throw new Error(`package.json's serve script is not \`node [--flag…] src/server.ts\`: ${serve}`);
  return match[1]!.split(/\s+/).filter(Boolean);
}

/** Node's arguments for the server of the checkout at `root`, as `npm run serve` gives them. */
export function serveArgs(root: string): string[] {
  return [...productionNodeFlags(root), resolve(root, 'src/server.ts')];
}
