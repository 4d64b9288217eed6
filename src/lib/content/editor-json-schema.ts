/**
 * JSON Schemas of what editors write, made from the zod schemas the build
 * validates with (editor-schema.ts), for text editors: VS Code checks
 * business.yaml through the YAML extension and review frontmatter through
 * remark (see .vscode/settings.json and .remarkrc.mjs), with completion of the
 * technicians, services and service areas listed in business.yaml.
 *
 * What JSON Schema cannot say (a real calendar date, cross-file checks such as
 * a reply dated before its review) is still checked by the build.
 */
import { z } from 'zod';
import { business } from '../reviews/schema.ts';
import { editingSettings, reviewFrontmatter, type BusinessChoices } from './editor-schema.ts';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[] };

/** Draft-07: what both the YAML extension and remark-lint-frontmatter-schema (ajv) read. */
const TARGET = 'draft-7';

/** The review frontmatter; with `choices`, the business.yaml lists as the allowed values. */
export function reviewFrontmatterJsonSchema(choices?: BusinessChoices): JsonSchema {
  const schema = z.toJSONSchema(reviewFrontmatter, { target: TARGET, io: 'input' }) as JsonSchema;
  schema.title = 'Review file frontmatter (content/reviews/*.md)';
  // The schema's refinement in JSON Schema's words: a published review says how it was
  // verified, a review taken down why and when.
  schema.allOf = [
    { if: { properties: { verified: { const: true } }, required: ['verified'] }, then: { required: ['verification'] } },
    { if: { properties: { verified: { const: false } }, required: ['verified'] }, then: { required: ['removal'] } },
  ];
  if (!choices) return schema;
  const properties = schema.properties!;
  // Technicians may be written by name or id; the build also forgives a name's letter case.
  const technicianValues = choices.technicians.flatMap((t) => [t.name, t.id]);
  properties.technicians!.items = { ...properties.technicians!.items, enum: technicianValues };
  properties.services!.items = { ...properties.services!.items, enum: choices.services.map((s) => s.id) };
  const area = properties.service_area!;
  const areas = choices.service_areas.map((a) => a.id);
  properties.service_area = { ...area, anyOf: area.anyOf!.map((branch) => (branch.type === 'string' ? { ...branch, enum: areas } : branch)) };
  return schema;
}

export function businessJsonSchema(): JsonSchema {
  const schema = z.toJSONSchema(business, { target: TARGET, io: 'input' }) as JsonSchema;
  schema.title = 'The business (content/business.yaml)';
  // With the editors' settings kept beside the business (editingSettings), which the published record leaves out.
  const settings = z.toJSONSchema(editingSettings, { target: TARGET, io: 'input' }) as JsonSchema;
  const record = ((schema.definitions as Record<string, JsonSchema> | undefined)?.Business ?? schema) as JsonSchema;
  record.properties = { ...record.properties, ...settings.properties };
  return schema;
}
