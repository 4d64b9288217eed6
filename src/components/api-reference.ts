/**
 * Reading the OpenAPI document for the reference page (src/pages/api-reference.astro
 * and the ApiReference components): following `$ref`s, short labels for types and
 * constraints, the operations in order, and curl lines from the document's examples.
 */
import {
  COMPONENT_REF,
  HTTP_METHODS,
  type HttpMethod,
  type JsonObject,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from '../lib/api/openapi/document-types.ts';
import { JSON_MEDIA } from '../lib/api/openapi/http-components.ts';

/** Follows a local `$ref` (`#/components/...`) once; anything else is returned as it is. */
export function deref<T = JsonObject>(document: OpenApiDocument, value: unknown): T {
  let current = value as JsonObject;
  for (let hops = 0; hops < 5 && typeof current?.$ref === 'string'; hops++) {
    const { $ref, ...siblings } = current;
    const target = resolvePointer(document, $ref as string);
    if (target === undefined) throw new Error(`unresolved $ref ${String($ref)}`);
    current = { ...(target as JsonObject), ...siblings };
  }
  return current as T;
}

export function resolvePointer(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The name of a `#/components/schemas/X` reference, or undefined. */
export function schemaRefName(schema: unknown): string | undefined {
  const target = (schema as JsonObject | undefined)?.$ref;
  return typeof target === 'string' && target.startsWith(COMPONENT_REF)
    ? target.slice(COMPONENT_REF.length)
    : undefined;
}

/** A short type for people: `integer`, `string (date)`, `array of Review`, `string or null`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  const name = schemaRefName(schema);
  if (name) return name;
  if ('const' in schema) return `${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((s) => typeLabel(s)).join(' or ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const labels = types.map((type) => {
    if (type === 'array') return `array of ${typeLabel(schema.items as JsonSchema | undefined)}`;
    if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
    if (
      type === 'object' &&
      schema.additionalProperties &&
      typeof schema.additionalProperties === 'object' &&
      !schema.properties
    )
      return 'object (map)';
    return type;
  });
  return labels.length ? labels.join(' or ') : 'any';
}

/** Constraints for people: `1 to 5`, `default 20`, `at most 200 characters`, `pattern ...`. */
export function constraintLabels(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const out: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = schema as Record<string, number | undefined>;
  if (minimum !== undefined && maximum !== undefined) out.push(`${minimum} to ${maximum}`);
  else if (minimum !== undefined) out.push(`at least ${minimum}`);
  else if (maximum !== undefined) out.push(`at most ${maximum}`);
  if (minLength !== undefined && maxLength !== undefined) out.push(`${minLength} to ${maxLength} characters`);
  else if (maxLength !== undefined) out.push(`at most ${maxLength} characters`);
  else if (minLength !== undefined) out.push(`at least ${minLength} characters`);
  if (minItems !== undefined) out.push(`at least ${minItems} items`);
  if (maxItems !== undefined) out.push(`at most ${maxItems} items`);
  if ('default' in schema) out.push(`default ${JSON.stringify(schema.default)}`);
  if (typeof schema.format === 'string' && schema.format === 'date') out.push('a real calendar date, YYYY-MM-DD');
  return out;
}

export interface OperationEntry {
  path: string;
  method: HttpMethod;
  operation: Operation;
}

/** The operations in document order. */
export function operationsOf(document: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) out.push({ path, method, operation });
    }
  }
  return out;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** curl lines for an operation, from the document's own examples. */
export function curlExamples(
  document: OpenApiDocument,
  entry: OperationEntry,
): Array<{ title: string; command: string }> {
  const base = document.servers[0]!.url;
  const { path, method, operation } = entry;
  const parameters = (operation.parameters ?? []).map((p) => deref(document, p));
  const pathParams = parameters.filter((p) => p.in === 'path');
  let url = base + path;
  for (const p of pathParams) url = url.replace(`{${String(p.name)}}`, encodeURIComponent(String(p.example ?? '')));
  const examples: Array<{ title: string; command: string }> = [];
  if (method === 'get') {
    const query = parameters.filter((p) => p.in === 'query' && p.example !== undefined);
    examples.push({ title: 'Request', command: `curl -i ${shellQuote(url)}` });
    if (query.length > 0) {
      const pick = query.filter((p) => ['min_rating', 'since', 'limit'].includes(String(p.name)));
      const qs = new URLSearchParams(
        (pick.length ? pick : query.slice(0, 2)).map((p) => [String(p.name), String(p.example)]),
      ).toString();
      examples.push({ title: 'With filters (combined with AND)', command: `curl -i ${shellQuote(`${url}?${qs}`)}` });
    }
    if (operation.responses['304']) {
      examples.push({
        title: 'Revalidate (304 when unchanged)',
        command: `curl -i -H ${shellQuote('If-None-Match: "<ETag from the last response>"')} ${shellQuote(url)}`,
      });
    }
  } else if (method === 'post') {
    const content = (operation.requestBody?.content ?? {}) as Record<
      string,
      { examples?: Record<string, { summary?: string; value: unknown }> }
    >;
    for (const [mediaType, media] of Object.entries(content)) {
      for (const example of Object.values(media.examples ?? {})) {
        if (mediaType === JSON_MEDIA) {
          const headers = [
            `-H ${shellQuote('Content-Type: application/json')}`,
            `-H ${shellQuote('Accept: application/json, text/event-stream')}`,
          ];
          const value = example.value as { method?: string };
          if (value.method !== 'initialize')
            headers.push(`-H ${shellQuote('Mcp-Session-Id: <id from the initialize response>')}`);
          examples.push({
            title: example.summary ?? 'Request',
            command: `curl -i -X POST ${headers.join(' ')} \\\n  --data ${shellQuote(JSON.stringify(example.value))} ${shellQuote(url)}`,
          });
        } else {
          const fields = Object.entries(example.value as Record<string, unknown>).map(
            ([k, v]) => `--data-urlencode ${shellQuote(`${k}=${String(v)}`)}`,
          );
          examples.push({
            title: example.summary ?? 'Request',
            command: `curl -i -X POST ${fields.join(' \\\n  ')} \\\n  ${shellQuote(url)}`,
          });
        }
      }
    }
  } else if (method === 'delete') {
    examples.push({
      title: 'Request',
      command: `curl -i -X DELETE -H ${shellQuote('Mcp-Session-Id: <id>')} ${shellQuote(url)}`,
    });
  }
  return examples;
}

/** Splits a description on `backticks` so a page can show the quoted parts as code. */
export function textSegments(text: string): Array<{ text: string; code: boolean }> {
  return text
    .split('`')
    .map((part, i) => ({ text: part, code: i % 2 === 1 }))
    .filter((s) => s.text !== '');
}
