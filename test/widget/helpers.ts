/**
 * The widget's test bench: a second origin (a tiny node:http server on
 * another port) whose pages embed the snippet pointing at the built server,
 * as the owner's own website would, and helpers to wait for and read the
 * widget in Chromium.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { widgetSnippet, type SnippetAttributes } from '../../src/widget/snippet.ts';

export interface Origin {
  url: string;
  close: () => Promise<void>;
}

/** A local HTTP origin answering with `handler`. */
export async function startOrigin(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Origin> {
  const server = createServer(handler);
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** The owner's website: pages registered by path, served as HTML. */
export async function startHostSite(): Promise<Origin & { page: (html: string) => string }> {
  const pages = new Map<string, string>();
  const origin = await startOrigin((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html ?? 'not found');
  });
  let next = 0;
  return {
    ...origin,
    page: (html) => {
      const path = `/page-${++next}.html`;
      pages.set(path, html);
      return `${origin.url}${path}`;
    },
  };
}

/** A complete, accessible host page: the snippet (as /widget prints it) for each widget, inside `main`. */
export function hostPageHtml(
  service: string,
  widgets: SnippetAttributes[],
  options: { css?: string; before?: string } = {},
): string {
  const snippets = widgets.map((attributes, index) => {
    const snippet = widgetSnippet(service, attributes);
    // The script tag once per page is enough; a repeated one must be harmless too (tested separately).
    return index === 0 ? snippet : snippet.split('\n').slice(1).join('\n');
  });
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Cedar Ridge Roofing: home</title>
<style>${options.css ?? ''}</style></head>
<body><main><h1>Our roofing company</h1>${options.before ?? ''}
${snippets.join('\n')}
</main></body></html>`;
}

/** Waits until every widget on the page has rendered its reviews or its fallback. */
export async function widgetsSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('roofing-reviews')].every((el) =>
        el.shadowRoot?.querySelector('.box:not([aria-busy]), [part="fallback"]'),
      ),
    undefined,
    { timeout: 15_000 },
  );
}

/** Console warnings and uncaught errors of a page, from the moment it opens. */
export function watchConsole(page: Page): { warnings: string[]; errors: string[] } {
  const seen = { warnings: [] as string[], errors: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'warning') seen.warnings.push(message.text());
    // Chromium reports a failed fetch as a console error of its own; only the page's errors count.
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  return seen;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core injected into the page, over the whole document and into open shadow roots (WCAG 2.2 A/AA and best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
}

/** The rating as the widget prints it: one decimal. */
export const oneDecimal = (value: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
