// Checks the frontmatter of review files against the JSON Schema generated from
// the build's own zod schema (src/lib/content/editor-json-schema.ts). VS Code
// shows the problems as you type with the recommended "remark" extension
// (unifiedjs.vscode-remark); `npx remark content/reviews --quiet` checks every file.
import remarkFrontmatter from 'remark-frontmatter';
import remarkLintFrontmatterSchema from 'remark-lint-frontmatter-schema';

export default {
  plugins: [
    remarkFrontmatter,
    [
      remarkLintFrontmatterSchema,
      { schemas: { '.vscode/schemas/review-frontmatter.schema.json': ['content/reviews/**/*.md'] } },
    ],
  ],
};
