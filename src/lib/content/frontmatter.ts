/**
 * Splits an editor's Markdown file into its YAML frontmatter and its body.
 * YAML 1.2 (the `yaml` package) keeps `2024-05-03` a string, so dates are
 * validated by the schemas rather than silently turned into Date objects.
 */
import { parseDocument } from 'yaml';

export interface MarkdownFile {
  data: unknown;
  body: string;
}

export class FrontmatterError extends Error {}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseMarkdown(source: string): MarkdownFile {
  const text = source.replace(/^\uFEFF/, '');
  const match = FENCE.exec(text);
  if (!match) throw new FrontmatterError('missing frontmatter: the file must start with a line "---", the fields, and a closing "---"');
  return { data: parseYaml(match[1]), body: text.slice(match[0].length).trim() };
}

export function parseYaml(source: string): unknown {
  const doc = parseDocument(source, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new FrontmatterError(`invalid YAML: ${doc.errors.map((e) => e.message.split('\n')[0]).join('; ')}`);
  }
  return doc.toJS() ?? {};
}
