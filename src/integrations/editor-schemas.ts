/**
 * Keeps the editors' JSON Schemas (.vscode/schemas/) in step with the zod
 * schemas and business.yaml whenever the project's own content is previewed or
 * built. Builds of other content folders (tests, scale runs) leave them alone.
 */
import type { AstroIntegration } from 'astro';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentDir } from '../lib/config/site.ts';
import { writeEditorSchemaFiles } from '../lib/content/editor-schema-files.ts';

export function editorSchemas(): AstroIntegration {
  return {
    name: 'roofing-reviews:editor-schemas',
    hooks: {
      'astro:config:setup': ({ config, logger }) => {
        const root = fileURLToPath(config.root);
        const content = resolve(contentDir());
        if (content !== resolve(root, 'content')) return;
        for (const file of writeEditorSchemaFiles(root, content)) logger.info(`updated ${file}`);
      },
    },
  };
}
