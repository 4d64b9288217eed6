/**
 * Splits an editor's Markdown file into its YAML frontmatter and its body, and
 * parses YAML with errors at the file's own line numbers (what the fields must
 * hold is src/lib/content/editor-schema.ts). YAML 1.2 (the `yaml` package) keeps `2024-05-03` a string, so dates are
 * validated by the schemas rather than silently turned into Date objects.
 */
import { parseDocument } from 'yaml';

export class FrontmatterError extends Error {}

// Our own: package.json has no frontmatter splitter, and the fence is one expression.
const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseMarkdown(source: string): { data: unknown; body: string } {
  const text = source.replace(/^\uFEFF/, '');
  const match = FENCE.exec(text);
  if (!match) throw new FrontmatterError('missing frontmatter: the file must start with a line "---", the fields, and a closing "---"');
  // The frontmatter starts on the file's second line: errors name the file's line numbers.
  return { data: parseYaml(match[1], 1), body: text.slice(match[0].length).trim() };
}

/** Parses YAML; `lineOffset` is added to error line numbers (the lines above `source` in its file). */
export function parseYaml(source: string, lineOffset = 0): unknown {
  const doc = parseDocument(source, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const messages = doc.errors.map((error) => {
      const first = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      const at = error.linePos?.[0];
      return at ? `${first} at line ${at.line + lineOffset}, column ${at.col}` : first;
    });
    throw new FrontmatterError(`invalid YAML: ${messages.join('; ')}`);
  }
  return doc.toJS() ?? {};
}
