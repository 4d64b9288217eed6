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
  return error.issues.flatMap((found): Issue[] => {
    const path = found.path.map((key) => (typeof key === 'number' ? key : String(key)));
    if (found.code === 'unrecognized_keys') {
      // One issue per unknown parameter, each naming only its own (a 400 body must not grow with the square of the query).
      return found.keys.map((key) => ({
        code: found.code,
        path: [...path, key],
        message: `unknown parameter "${clip(key)}"`,
      }));
    }
    const name = path.join('.');
    const message = name && !found.message.startsWith(name) ? `${name}: ${found.message}` : found.message;
    return [{ code: found.code, path, message }];
  });
}

/** At most this many issues in one answer; what a client sends cannot make an error body large. */
export const MAX_ISSUES = 20;
const MAX_NAME = 64;

/**
 * The issues an answer carries: the first MAX_ISSUES, parameter names clipped,
 * and, when some were left out, a last issue saying how many.
 */
export function boundIssues(issues: readonly Issue[]): Issue[] {
  const kept = issues.slice(0, MAX_ISSUES).map((issue) => ({
    code: issue.code,
    path: issue.path.map((key) => (typeof key === 'string' ? clip(key) : key)),
    message: issue.message.length > 300 ? `${issue.message.slice(0, 299)}…` : issue.message,
  }));
  const left = issues.length - kept.length;
  if (left > 0)
    kept.push({
      code: 'too_many_issues',
      path: [],
      message: `${left} more problem${left === 1 ? '' : 's'} not listed: fix these first`,
    });
  return kept;
}

function clip(name: string): string {
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}
