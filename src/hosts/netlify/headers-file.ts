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

/** The rules back from a `_headers` file (tests read what a deploy would read). */
export function parseNetlifyHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (rule && colon > 0) rule.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return rules;
}
