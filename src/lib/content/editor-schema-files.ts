/**
 * Writes the editors' JSON Schemas (editor-json-schema.ts) where the
 * repository's VS Code settings and .remarkrc.mjs look for them. Run by every
 * `astro dev` and `astro build` of the project's own content/, so a technician,
 * service or area added to business.yaml is offered as soon as the editor
 * previews. A file is rewritten only when its bytes change.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { businessJsonSchema, reviewFrontmatterJsonSchema } from './editor-json-schema.ts';
import { loadBusiness } from './load.ts';

export const EDITOR_SCHEMA_FILES = {
  review: '.vscode/schemas/review-frontmatter.schema.json',
  business: '.vscode/schemas/business.schema.json',
} as const;

/** The files' contents for a content folder: choices from its business.yaml when it is valid. */
export function editorSchemaFiles(contentDir: string): Record<keyof typeof EDITOR_SCHEMA_FILES, string> {
  return {
    // A broken business.yaml is the build's to report; the schema then offers no choices.
    review: `${JSON.stringify(reviewFrontmatterJsonSchema(loadBusiness(contentDir, []) ?? undefined), null, 2)}\n`,
    business: `${JSON.stringify(businessJsonSchema(), null, 2)}\n`,
  };
}

/** Writes the files under `rootDir`; returns the ones that changed. */
export function writeEditorSchemaFiles(rootDir: string, contentDir: string): string[] {
  const contents = editorSchemaFiles(contentDir);
  const changed: string[] = [];
  for (const [name, file] of Object.entries(EDITOR_SCHEMA_FILES) as Array<[keyof typeof EDITOR_SCHEMA_FILES, string]>) {
    const path = join(rootDir, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === contents[name]) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, contents[name]);
    renameSync(`${path}.tmp`, path);
    changed.push(file);
  }
  return changed;
}
