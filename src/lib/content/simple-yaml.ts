/**
 * A fast path for the frontmatter editors and the CMS actually write: flat
 * `key: value` lines, one level of nested mapping (`response:` with indented
 * `date:` and `text:`), flow sequences (`[a, "b"]`), block sequences of
 * scalars (`- a`), and plain, double- or single-quoted one-line scalars.
 *
 * The `yaml` package builds a concrete and an abstract syntax tree per file,
 * about 0.25 ms a review: at 100k reviews the largest single cost of reading
 * the content. This parser gives the same value as `yaml`'s core schema for
 * what it accepts, and accepts only what it is sure of: anything else (a
 * comment, an escape, a multi-line scalar, a duplicate key, a number that is
 * not a plain decimal, anchors, tags, ...) returns undefined and the caller
 * parses the file with `yaml`, which also gives the error messages. So a file
 * with a mistake is always reported by `yaml`, exactly as before.
 */

type Scalar = string | number | boolean | null;
type Value = Scalar | Scalar[] | { [key: string]: Value };

const NOT_SURE = Symbol('not sure');

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
// A plain scalar made of ordinary characters: letters, digits, spaces between words and a few marks.
// No ':', '#', quotes, brackets, commas or leading indicators: those have meanings in YAML.
const PLAIN = /^[\p{L}\p{N}][\p{L}\p{N} ._/+@()-]*$/u;
const PLAIN_IN_FLOW = /^[\p{L}\p{N}][\p{L}\p{N} ._/+@-]*$/u;
// Core schema resolution: whatever would resolve to something other than a string, or a number
// not written in plain decimal, is left to `yaml`.
const NULL_WORDS = new Set(['null', 'Null', 'NULL', '~']);
const BOOLEANS = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
const SMALL_INT = /^(?:0|[1-9][0-9]{0,14})$/;
const DATE_OR_INSTANT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?$/;
const NUMBER_LIKE = /^[-+.]?[0-9]|^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/;

/** The value of a simple YAML mapping, or undefined when the text is not in the simple subset. */
export function parseSimpleYaml(source: string): Record<string, Value> | undefined {
  const lines = source.split('\n');
  const out: Record<string, Value> = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const match = KEY_LINE.exec(line);
    if (!match) return undefined;
    const [, key, rest] = match;
    if (Object.hasOwn(out, key) || key === '__proto__') return undefined;
    i += 1;
    let value: Value | typeof NOT_SURE;
    if (rest === undefined || rest === '') {
      // An indented block: a nested mapping or a block sequence; else an empty value (null).
      const block: string[] = [];
      while (i < lines.length && (lines[i].startsWith(' ') || lines[i].startsWith('- '))) block.push(lines[i++]);
      value = block.length === 0 ? null : parseBlock(block);
    } else value = parseInline(rest);
    if (value === NOT_SURE) return undefined;
    out[key] = value;
  }
  return out;
}

function parseBlock(lines: string[]): Value | typeof NOT_SURE {
  const indent = lines[0].length - lines[0].trimStart().length;
  const prefix = ' '.repeat(indent);
  if (lines.some((l) => !l.startsWith(prefix) || l[indent] === ' ')) return NOT_SURE;
  const inner = lines.map((l) => l.slice(indent));
  if (inner[0].startsWith('- ')) {
    const items: Scalar[] = [];
    for (const item of inner) {
      if (!item.startsWith('- ')) return NOT_SURE;
      const value = scalar(item.slice(2), PLAIN);
      if (value === NOT_SURE) return NOT_SURE;
      items.push(value);
    }
    return items;
  }
  if (indent === 0) return NOT_SURE;
  const map: Record<string, Value> = {};
  for (const line of inner) {
    const match = KEY_LINE.exec(line);
    if (!match || match[2] === undefined || match[2] === '' || Object.hasOwn(map, match[1]) || match[1] === '__proto__') return NOT_SURE;
    const value = parseInline(match[2]);
    if (value === NOT_SURE) return NOT_SURE;
    map[match[1]] = value;
  }
  return map;
}

function parseInline(text: string): Value | typeof NOT_SURE {
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) return NOT_SURE;
    const body = text.slice(1, -1).trim();
    if (body === '') return [];
    const items: Scalar[] = [];
    for (const part of splitFlow(body)) {
      const value = scalar(part.trim(), PLAIN_IN_FLOW);
      if (value === NOT_SURE) return NOT_SURE;
      items.push(value);
    }
    return items;
  }
  return scalar(text, PLAIN);
}

/** Splits flow sequence items on commas outside quotes; quotes inside an item are checked by `scalar`. */
function splitFlow(body: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quote = '';
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function scalar(text: string, plain: RegExp): Scalar | typeof NOT_SURE {
  if (text.length === 0) return NOT_SURE;
  const first = text[0];
  if (first === '"') {
    // No escapes, no inner quotes, nothing after the closing quote.
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith('"') || inner.includes('"') || inner.includes('\\') || hasControl(inner)) return NOT_SURE;
    return inner;
  }
  if (first === "'") {
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith("'") || inner.replaceAll("''", '').includes("'") || hasControl(inner)) return NOT_SURE;
    return inner.replaceAll("''", "'");
  }
  // Dates and instants ("2024-05-03", "2025-05-23T18:05:00Z") are strings in YAML 1.2's core schema.
  if (DATE_OR_INSTANT.test(text)) return text;
  if (text.endsWith(' ') || text.includes('  ') || !plain.test(text)) return NOT_SURE;
  if (SMALL_INT.test(text)) return Number(text);
  if (NUMBER_LIKE.test(text)) {
    // Anything else that YAML could read as a number is not ours to decide.
    return NOT_SURE;
  }
  if (NULL_WORDS.has(text)) return null;
  const bool = BOOLEANS.get(text);
  if (bool !== undefined) return bool;
  return text;
}

// Tabs and control characters (other than none at all) are left to `yaml`.
function hasControl(text: string): boolean {
  return /[\u0000-\u001F\u007F-\u009F\u2028\u2029\uFEFF]/.test(text);
}
