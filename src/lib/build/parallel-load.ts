/**
 * Reading a large content folder on every core. Each review file is read,
 * checked and analysed for the insights on its own (load.ts readReviewFile,
 * insights createReviewAnalyser): that is most of a build's content sync, and
 * grows with the reviews (at 100k, minutes on one core). Each worker thread reads
 * one run of consecutive files; the results are put back in file order, and the checks
 * across files (ids), the problems, the published list and the insights
 * document are made from them exactly as a read in one thread makes them: the
 * same content gives the same problems, reviews and bytes either way.
 *
 * Small folders (an editor's site, `astro dev`) are read in the calling
 * thread: a worker costs its start and wink's model load (~0.3 s each).
 * Here, above content/ and insights/, because it joins the two: reading
 * content knows nothing of the analysis.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  collectReviews,
  createReferenceResolver,
  describeReadError,
  listReviewFiles,
  loadBusiness,
  readReviewFile,
  REVIEWS_DIR,
  type LoadedContent,
  type ReadReview,
  type ReviewFile,
} from '../content/load.ts';
import { ContentError, type ContentProblem } from '../content/problems.ts';
import { createReviewAnalyser, type ReviewInsight } from '../insights/build.ts';
import type { Business } from '../reviews/schema.ts';

/** Files per worker below which a thread costs more than it saves. */
const FILES_PER_THREAD = 1000;

export interface ReadFileResult {
  read: ReadReview;
  /** The review's insights analysis, for a published review. */
  insight?: ReviewInsight;
}

/** Reads and analyses files: what a worker does, and the calling thread for small folders. */
export function createFileReader(business: Business | null): (files: readonly ReviewFile[]) => ReadFileResult[] {
  const resolver = business ? createReferenceResolver(business) : null;
  const analyse = business ? createReviewAnalyser(business) : null;
  return (files) =>
    files.map((entry) => {
      const read = readReviewFile(entry, business, resolver);
      return read.review && read.verified && analyse ? { read, insight: analyse(read.review) } : { read };
    });
}

/**
 * How many threads read a large folder (CONTENT_THREADS; default: the cores
 * available, at most 8). 1 reads in the calling thread.
 */
export function contentThreads(
  env: Record<string, string | undefined> = process.env,
  cores = availableParallelism(),
): number {
  const raw = env.CONTENT_THREADS?.trim();
  if (!raw) return Math.min(cores, 8);
  const threads = Number(raw);
  if (!Number.isInteger(threads) || threads < 1)
    throw new Error(`CONTENT_THREADS must be a whole number (1 or more), got "${raw}"`);
  return threads;
}

export interface LoadedWithInsights {
  content: LoadedContent;
  /** Each published review's insights analysis, by id. */
  insightOf: (id: string) => ReviewInsight | undefined;
}

/**
 * loadContent (load.ts) with the reviews' insights analysis, on worker threads when the folder
 * is large: at least `filesPerThread` files per thread (tests lower it).
 */
export async function loadContentWithInsights(
  contentDir: string,
  threads = contentThreads(),
  filesPerThread = FILES_PER_THREAD,
): Promise<LoadedWithInsights> {
  const problems: ContentProblem[] = [];
  const business = loadBusiness(contentDir, problems);
  let files: ReviewFile[];
  try {
    files = listReviewFiles(contentDir);
  } catch (error) {
    problems.push({ file: REVIEWS_DIR, field: '(folder)', message: describeReadError(error) });
    files = [];
  }
  const workers = Math.min(threads, Math.floor(files.length / filesPerThread));
  const results = workers >= 2 ? await readInWorkers(files, business, workers) : createFileReader(business)(files);
  const { reviews, unpublished, removals } = collectReviews(
    files,
    results.map((r) => r.read),
    problems,
  );
  if (problems.length > 0 || !business) throw new ContentError(problems);
  const insights = new Map<string, ReviewInsight>();
  results.forEach((r) => r.insight && r.read.review && insights.set(r.read.review.id, r.insight));
  return { content: { business, reviews, unpublished, removals }, insightOf: (id) => insights.get(id) };
}

// Beside this file (the build runs the sources: Node strips the types); Vite's module runner may add a query.
const workerFile = () => fileURLToPath(new URL('./review-worker.ts', import.meta.url.replace(/\?.*$/, '')));

async function readInWorkers(
  files: readonly ReviewFile[],
  business: Business | null,
  count: number,
): Promise<ReadFileResult[]> {
  const size = Math.ceil(files.length / count);
  const runs = Array.from({ length: count }, (_v, i) => files.slice(i * size, (i + 1) * size));
  const results = await Promise.all(
    runs.map(
      (run) =>
        new Promise<ReadFileResult[]>((resolve, reject) => {
          const worker = new Worker(workerFile(), { workerData: { business, files: run } });
          worker.once('message', resolve);
          worker.once('error', reject);
          // After its message a worker's exit settles nothing; before it, the content was not read.
          worker.once('exit', (code) =>
            reject(new Error(`a content reader thread stopped (exit code ${code}) before the content was read`)),
          );
        }),
    ),
  );
  return results.flat();
}
