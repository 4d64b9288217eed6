/**
 * An editor's mistake, located precisely enough to fix without reading code:
 * the file (relative to the content folder), the field, and what is wrong.
 */
export interface ContentProblem {
  file: string;
  field: string;
  message: string;
}

export class ContentError extends Error {
  readonly problems: ContentProblem[];

  constructor(problems: ContentProblem[]) {
    super(formatProblems(problems));
    this.name = 'ContentError';
    this.problems = problems;
  }
}

function formatProblems(problems: ContentProblem[]): string {
  const lines = problems.map((p) => `  ${p.file}: ${p.field}: ${p.message}`);
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return `The content folder has ${problems.length} ${noun}:\n${lines.join('\n')}`;
}

/**
 * Renders a zod issue path the way editors write fields: `response.date`, `services[1]`.
 * Our own: zod's toDotPath quotes keys that are not identifiers, which editors do not type.
 */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(file)';
}
