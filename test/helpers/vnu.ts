/**
 * The Nu Html Checker (vnu-jar from npm, on the Java that Debian's jing
 * brings) over saved pages: one JVM for a batch of pages, its errors per page.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './builds.ts';

const VNU_JAR = resolve(ROOT, 'node_modules/vnu-jar/build/dist/vnu.jar');

export interface VnuMessage {
  type: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** Each page's errors (warnings are not asked for), by the name it was given. */
export async function vnuErrors(pages: Record<string, string>): Promise<Record<string, VnuMessage[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'vnu-'));
  try {
    const files = new Map<string, string>();
    Object.entries(pages).forEach(([name, html], i) => {
      const file = join(dir, `page-${i}.html`);
      writeFileSync(file, html);
      files.set(`file:${file}`, name);
    });
    // vnu exits 1 when it finds errors; its findings are the JSON on stderr either way.
    const stderr = await promisify(execFile)(
      'java',
      ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...[...files.keys()].map((url) => url.slice(5))],
      { maxBuffer: 64 * 1024 * 1024 },
    ).then(
      (done) => done.stderr,
      (failed: { stderr?: string; code?: number }) => {
        if (failed.code !== 1 || !failed.stderr) throw failed;
        return failed.stderr;
      },
    );
    const report = JSON.parse(stderr) as { messages: (VnuMessage & { url: string })[] };
    const byPage: Record<string, VnuMessage[]> = Object.fromEntries(Object.keys(pages).map((name) => [name, []]));
    for (const { url, ...message } of report.messages) {
      const name = files.get(url) ?? files.get(`file:${new URL(url).pathname}`);
      if (name === undefined) throw new Error(`vnu reported on an unknown file: ${url}`);
      byPage[name]!.push(message);
    }
    return byPage;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
