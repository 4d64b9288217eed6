/**
 * An existing review file updated in place, as an editor would: only the
 * fields whose values change are rewritten, new ones are added where the
 * schema lists them, and everything else stays byte for byte (quotes, flow or
 * block lists, comments, key order, blank lines). Through `yaml`'s Document
 * API: the changed values are set on the parsed document and rendered with the
 * file's own layout; the untouched fields keep their original lines, since
 * `yaml` re-renders some hand-typed layouts differently (padding inside a flow
 * map, indentation), which would be lines changed for nothing.
 */
import {
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  Scalar,
  visit,
  type Document,
  type Node,
  type Pair,
  type ToStringOptions,
  type YAMLMap,
} from 'yaml';
import { authorName } from '../content/editor-schema.ts';
import type { ExistingReview } from './existing.ts';
import { FIELD_ORDER, reviewFileText, type Frontmatter } from './review-file.ts';

// The same fence as the loader's (split-frontmatter.ts), keeping each part's bytes.
const FENCE = /^(\uFEFF?---[ \t]*\r?\n)([\s\S]*?\r?\n)(---[ \t]*(?:\r?\n|$))/;

/** Fields of free text: a new one is quoted the way the file quotes its author. */
const TEXT_FIELDS = new Set(['title', 'author', 'text']);

/**
 * The text of an existing review file with the import's frontmatter and text: the file as it
 * is, but for the fields whose values differ from what it says (its frontmatter as the schema
 * reads it). A file the import wrote earlier in this run (no bytes kept) is written whole.
 */
export function updatedReviewFile(existing: ExistingReview, data: Frontmatter, text: string): string {
  if (existing.raw === undefined || existing.data === null) return reviewFileText(data, text);
  const before: Frontmatter = { ...existing.data, author: authorName(existing.data) };
  return updatedFileText(existing.raw, before, data, text);
}

/** `raw` (a review file whose frontmatter reads as `before`) with `after`'s values and `text`. */
export function updatedFileText(raw: string, before: Frontmatter, after: Frontmatter, text: string): string {
  const fence = FENCE.exec(raw);
  if (!fence) return reviewFileText(after, text);
  const [whole, open, source, close] = fence as unknown as [string, string, string, string];
  const rest = raw.slice(whole.length);
  const body = rest.trim() === text ? rest : `${text}${source.includes('\r\n') ? '\r\n' : '\n'}`;
  const changed = FIELD_ORDER.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  return `${open}${changed.length === 0 ? source : updatedFrontmatter(source, changed, after)}${close}${body}`;
}

/** The file's way of writing YAML, for the values the import adds or changes. */
interface Layout {
  options: ToStringOptions;
  /** How its free text is quoted, when it quotes its author. */
  text?: Scalar.Type;
  /** Whether its lists are written `[a, b]`. */
  flowLists: boolean;
  eol: string;
}

function layoutOf(source: string, doc: Document): Layout {
  let flowPadding: boolean | undefined;
  let flowLists: boolean | undefined;
  visit(doc, {
    Collection(_, node) {
      if (node.flow && flowPadding === undefined && node.range)
        flowPadding = /^[[{][ \t]/.test(source.slice(node.range[0], node.range[0] + 2));
      if (isSeq(node)) flowLists ??= node.flow === true;
    },
  });
  const author = isMap(doc.contents) ? doc.contents.get('author', true) : undefined;
  const indent = /^[^\s#][^\n]*:[ \t]*\r?\n( +)\S/m.exec(source)?.[1]?.length ?? 2;
  // A block list under a key: indented ("  - a") or not ("- a").
  const seqIndent = /^[^\s#][^\n]*:[ \t]*\r?\n( *)- /m.exec(source)?.[1];
  return {
    options: {
      lineWidth: 0,
      indent,
      indentSeq: seqIndent === undefined ? true : seqIndent.length > 0,
      flowCollectionPadding: flowPadding ?? false,
    },
    ...(isScalar(author) && (author.type === Scalar.QUOTE_DOUBLE || author.type === Scalar.QUOTE_SINGLE)
      ? { text: author.type }
      : {}),
    flowLists: flowLists ?? false,
    eol: source.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** The frontmatter with the changed fields set, added or removed; every other line as it was. */
function updatedFrontmatter(source: string, changed: ReadonlyArray<keyof Frontmatter>, after: Frontmatter): string {
  // Edited as a Document of plain nodes: the values set here were never parsed.
  const doc: Document = parseDocument(source, { uniqueKeys: true });
  const map = doc.contents;
  if (!isMap<unknown, unknown>(map)) throw new Error('a review file whose frontmatter was read is a map');
  const layout = layoutOf(source, doc);
  const touched = new Set<Pair>();
  for (const field of changed) {
    const value = after[field];
    const at = map.items.findIndex((pair) => isScalar(pair.key) && pair.key.value === field);
    if (value === undefined || value === null) {
      if (at >= 0) map.items.splice(at, 1);
      continue;
    }
    if (at >= 0) {
      const pair = map.items[at]!;
      pair.value = updatedNode(doc, pair.value as Node | null, value, layout, field);
      touched.add(pair);
      continue;
    }
    const pair = doc.createPair(field, newNode(doc, value, layout, field)) as Pair;
    map.items.splice(insertionIndex(map, field), 0, pair);
    touched.add(pair);
  }
  return spliced(source, doc, touched, layout);
}

/** Where a new field goes: after the last field the schema lists before it. */
function insertionIndex(map: YAMLMap, field: keyof Frontmatter): number {
  const rank = FIELD_ORDER.indexOf(field);
  let index = 0;
  map.items.forEach((pair, i) => {
    const key = isScalar(pair.key) ? (pair.key.value as keyof Frontmatter) : undefined;
    if (key !== undefined && FIELD_ORDER.indexOf(key) < rank) index = i + 1;
  });
  return index;
}

/** The old node with the new value: a scalar keeps its quoting, a map its style and unchanged keys. */
function updatedNode(doc: Document, node: Node | null, value: unknown, layout: Layout, field: string): Node {
  if (isScalar(node) && isPlainValue(value)) {
    node.value = value;
    return node;
  }
  if (isMap(node) && isRecord(value)) {
    for (const [key, inner] of Object.entries(value)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (inner === undefined || inner === null) node.delete(key);
      else if (!pair) node.add(doc.createPair(key, newNode(doc, inner, layout, key)));
      else if (JSON.stringify((pair.value as Node | null)?.toJSON?.() ?? pair.value) !== JSON.stringify(inner))
        pair.value = updatedNode(doc, pair.value as Node | null, inner, layout, key);
    }
    for (const pair of [...node.items])
      if (isScalar(pair.key) && !Object.hasOwn(value, String(pair.key.value))) node.delete(pair.key);
    return node;
  }
  return newNode(doc, value, layout, field);
}

/** A value the file did not have, written as the file writes its lists and free text. */
function newNode(doc: Document, value: unknown, layout: Layout, field: string): Node {
  const node = doc.createNode(value) as Node;
  visit(node, {
    Seq(_, seq) {
      seq.flow = layout.flowLists;
    },
    Pair(_, pair) {
      if (isScalar(pair.key) && TEXT_FIELDS.has(String(pair.key.value)) && isScalar(pair.value))
        quote(pair.value, layout);
    },
  });
  if (isScalar(node) && TEXT_FIELDS.has(field)) quote(node, layout);
  return node;
}

function quote(node: Scalar, layout: Layout): void {
  if (typeof node.value === 'string' && layout.text) node.type = layout.text;
}

/**
 * The rendered document, but with the original lines of every top-level field not touched:
 * each field is its lines from the comments and blank lines above its key up to the next field.
 */
function spliced(source: string, doc: Document, touched: ReadonlySet<Pair>, layout: Layout): string {
  const rendered = doc.toString(layout.options).replace(/\r?\n/g, layout.eol);
  const map = doc.contents as YAMLMap;
  const again = parseDocument(rendered).contents;
  const original = parseDocument(source).contents;
  if (!isMap(again) || !isMap(original) || again.items.length !== map.items.length || map.flow) return rendered;
  const blocks = (text: string, items: readonly Pair[]) => {
    const keys = items.map((pair) => lineStart(text, (pair.key as Node).range![0]));
    const starts = keys.map((key, i) => withLeadingLines(text, key, i === 0 ? 0 : keys[i - 1]! + 1));
    return {
      head: text.slice(0, starts[0] ?? text.length),
      parts: starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length)),
    };
  };
  const before = blocks(source, original.items);
  const after = blocks(rendered, again.items);
  const originalIndex = new Map(original.items.map((pair, i) => [String((pair.key as Scalar).value), i]));
  const out = map.items.map((pair, i) => {
    const at = originalIndex.get(String((pair.key as Scalar).value));
    return at === undefined || touched.has(pair) ? after.parts[i]! : before.parts[at]!;
  });
  return withNewline(before.head + out.map((part) => withNewline(part, layout.eol)).join(''), layout.eol);
}

const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;

/** Where a field's lines start: its key, or the blank and comment lines right above it (not above `floor`). */
function withLeadingLines(text: string, key: number, floor: number): number {
  let start = key;
  while (start > floor) {
    const previous = lineStart(text, start - 1);
    if (previous < floor || !/^(?:#.*|[ \t]*)\r?\n$/.test(text.slice(previous, start))) break;
    start = previous;
  }
  return start;
}
const withNewline = (text: string, eol = '\n') => (text === '' || text.endsWith('\n') ? text : `${text}${eol}`);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPlainValue = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
