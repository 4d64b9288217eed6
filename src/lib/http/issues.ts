/**
 * Validation problems in the interface's shape — `{ code, path, message }`, the
 * elements of a 400's `issues` — and zod's findings turned into it. Every front
 * door (REST, MCP tools, the hub's form) reports problems through here.
 */
import type { z } from 'zod';
import type { issue } from './errors-schema.ts';

export type Issue = z.infer<typeof issue>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

export function validate<T>(schema: z.ZodType<T>, input: unknown): Parsed<T> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: toIssues(result.error) };
}

/** zod's issues in the interface's shape, each message naming its parameter (and nothing internal). */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.map((found) => {
    const path = found.path.map((key) => (typeof key === 'number' ? key : String(key)));
    if (found.code === 'unrecognized_keys') {
      return { code: found.code, path: [...path, ...found.keys], message: `unknown parameter${found.keys.length > 1 ? 's' : ''} ${found.keys.map((k) => `"${k}"`).join(', ')}` };
    }
    const name = path.join('.');
    const message = name && !found.message.startsWith(name) ? `${name}: ${found.message}` : found.message;
    return { code: found.code, path, message };
  });
}
