/**
 * Netlify's `_headers` file (publish folder) from the header rules: a path line,
 * then one indented `Name: value` line per header.
 * https://docs.netlify.com/manage/routing/headers/
 */
import type { HeaderRule } from '../header-rules.ts';

export function netlifyHeadersFile(rules: readonly HeaderRule[]): string {
  const lines = ['# Generated at build time from static-manifest.json (src/hosts/header-rules.ts). Do not edit.'];
  for (const rule of rules) {
    lines.push(rule.path);
    for (const [name, value] of Object.entries(rule.headers)) lines.push(`  ${name}: ${value}`);
  }
  return `${lines.join('\n')}\n`;
}
