/**
 * Tool schemas as MCP clients want them: one self-contained JSON Schema object
 * with `type: "object"` at the top. The shared zod schemas carry ids (for the
 * OpenAPI document), which the converter turns into `$ref`s to `definitions`;
 * the MCP spec wants an object schema at the top, and several model APIs
 * refuse `$ref`, so references are inlined (the schemas have no cycles).
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

/** The JSON Schema of a tool's input or output (converted once per process, with the catalog). */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json & { type: 'object' } {
  // Draft-07, as the SDK's own conversion writes tool schemas.
  const raw = z.toJSONSchema(schema, { target: 'draft-7', io }) as Json;
  const definitions = { ...((raw.definitions as Json | undefined) ?? {}), ...((raw.$defs as Json | undefined) ?? {}) };
  const { definitions: _d, $defs: _defs, $schema, ...top } = raw;
  const inlined = inline(top, definitions, []) as Json;
  if (inlined.type !== 'object')
    throw new Error(`a tool's ${io} schema must describe an object, got ${JSON.stringify(inlined).slice(0, 200)}`);
  return { $schema, ...inlined } as unknown as Json & { type: 'object' };
}

function inline(node: unknown, definitions: Json, trail: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, definitions, trail));
  if (typeof node !== 'object' || node === null) return node;
  let object = node as Json;
  // `allOf: [{ $ref }]` alone is how a clone of an identified schema is written: the same as the $ref.
  if (Array.isArray(object.allOf) && object.allOf.length === 1 && Object.keys(object).length === 1)
    object = object.allOf[0] as Json;
  const ref = object.$ref;
  if (typeof ref === 'string') {
    const name = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(ref)?.[1];
    if (!name || !(name in definitions)) throw new Error(`unresolvable $ref ${ref}`);
    if (trail.includes(name)) throw new Error(`recursive schema ${name} cannot be inlined`);
    const { $ref: _ref, ...siblings } = object;
    return {
      ...(inline(definitions[name], definitions, [...trail, name]) as Json),
      ...(inline(siblings, definitions, trail) as Json),
    };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) out[key] = inline(value, definitions, trail);
  return out;
}
