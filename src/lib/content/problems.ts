/**
 * An editor's mistake, located precisely enough to fix without reading code:
 * the file (relative to the content folder), the field, and what is wrong;
 * where known, the line, what was typed and the nearest allowed value.
 */
import { LineCounter, parseDocument, isMap, isScalar, type Node } from 'yaml';

export interface ContentProblem {
  file: string;
  field: string;
  message: string;
  /** The file's line (from 1) the field is on. */
  line?: number;
  /** What the editor typed there, as text (when the message does not quote it already). */
  value?: string;
  /** The allowed value nearest to what was typed: "did you mean …". */
  suggestion?: string;
}

export class ContentError extends Error {
  readonly problems: ContentProblem[];

  constructor(problems: ContentProblem[]) {
    super(formatProblems(problems));
    this.name = 'ContentError';
    this.problems = problems;
  }
}

/** One problem on one line: `file: field: message — you typed … — did you mean "…"? (line n)`. */
function formatProblem(p: ContentProblem): string {
  const details = [
    p.value === undefined ? '' : ` — you typed ${p.value}`,
    p.suggestion === undefined ? '' : ` — did you mean "${p.suggestion}"?`,
    p.line === undefined ? '' : ` (line ${p.line})`,
  ];
  return `${p.file}: ${p.field}: ${p.message}${details.join('')}`;
}

function formatProblems(problems: ContentProblem[]): string {
  const lines = problems.map((p) => `  ${formatProblem(p)}`);
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return `The content folder has ${problems.length} ${noun}:\n${lines.join('\n')}`;
}

/**
 * The problems of a ContentError, also when it comes from another copy of this
 * module (Astro loads the content config and the pages in different module graphs).
 */
export function problemsOf(error: unknown): ContentProblem[] | undefined {
  const problems = (error as { problems?: unknown } | null)?.problems;
  return Array.isArray(problems) ? (problems as ContentProblem[]) : undefined;
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

/** A value as an editor typed it, short enough for one line. */
export function typedValue(value: unknown): string {
  const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * The allowed value nearest to `typed`, when one is close enough to be a slip of
 * the keyboard (a letter or two per word). Our own: the lists are a few dozen
 * names long and the distance is ten lines.
 */
export function nearest(typed: string, allowed: readonly string[]): string | undefined {
  const wanted = typed.trim().toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const option of allowed) {
    const distance = editDistance(wanted, option.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [option, distance];
  }
  const tolerance = Math.max(1, Math.floor(wanted.length / 4));
  return best !== undefined && bestDistance > 0 && bestDistance <= tolerance ? best : undefined;
}

/** Levenshtein distance with adjacent transpositions ("ratnig"). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

const UNKNOWN_FIELD = /^unknown field "([^"]+)"$/;

/** A field the schema does not have, with the allowed field it was probably meant to be. */
export function unknownFieldProblem(file: string, key: string, fields: readonly string[]): ContentProblem {
  const suggestion = nearest(key, fields);
  return {
    file,
    field: '(file)',
    message: `unknown field "${key}"`,
    ...(suggestion ? { suggestion } : {}),
  };
}

/**
 * Adds the line of each problem's field, read from the file's source: a review
 * file (YAML between `---` fences from its first line) or a YAML file. A field
 * that is not in the file (a missing one) keeps no line.
 */
export function withLines(problems: ContentProblem[], source: string, kind: 'markdown' | 'yaml'): ContentProblem[] {
  if (problems.length === 0) return problems;
  let yamlSource = source.replace(/^\uFEFF/, '');
  let offset = 0;
  if (kind === 'markdown') {
    const lines = yamlSource.split(/\r?\n/);
    const close = lines.indexOf('---', 1);
    if (!/^---[ \t]*$/.test(lines[0] ?? '') || close < 0) return problems;
    yamlSource = lines.slice(1, close).join('\n');
    offset = 1;
  }
  const counter = new LineCounter();
  const doc = parseDocument(yamlSource, { lineCounter: counter, uniqueKeys: false });
  if (doc.errors.length > 0) return problems;
  const lineAt = (node: Node | null | undefined) => (node?.range ? counter.linePos(node.range[0]).line + offset : undefined);
  return problems.map((problem) => {
    if (problem.line !== undefined) return problem;
    const path = parsePath(problem.field);
    let line: number | undefined;
    if (path) {
      const node = doc.getIn(path, true) as Node | undefined;
      line = lineAt(node && (isScalar(node) || isMap(node) || 'range' in node) ? node : undefined);
    } else {
      const unknown = UNKNOWN_FIELD.exec(problem.message);
      if (unknown) line = lineAt(keyNode(doc.contents, unknown[1]));
    }
    return line === undefined ? problem : { ...problem, line };
  });
}

/** `response.date`, `services[1]` back into a path; undefined for `(file)`, `(body)`…. */
function parsePath(field: string): Array<string | number> | undefined {
  if (field.startsWith('(')) return undefined;
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1] : Number(m[2])));
}

function keyNode(contents: unknown, key: string): Node | undefined {
  if (!isMap(contents)) return undefined;
  const pair = contents.items.find((item) => isScalar(item.key) && item.key.value === key);
  return pair?.key as Node | undefined;
}
