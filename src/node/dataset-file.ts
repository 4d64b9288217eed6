/**
 * The Node server's reviews: reviews.json on disk, its records read by offset
 * (src/lib/reviews/records.ts). The file is read once, a span at a time, to
 * find the records and fill the columns, and not kept: the server already
 * answers the build's large files from disk. The descriptor stays open for the process, so
 * a file replaced by rename is still read as it was loaded.
 */
import { fstatSync, openSync, readSync, closeSync } from 'node:fs';
import { recordsFromSource, type RecordSource, type ReviewRecords } from '../lib/reviews/records.ts';

export function recordsFromFile(path: string): ReviewRecords {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const source: RecordSource = {
      size,
      read(start, end) {
        const out = Buffer.allocUnsafeSlow(end - start);
        for (let done = 0; done < out.length; ) {
          const got = readSync(fd, out, done, out.length - done, start + done);
          if (got === 0) throw new Error(`${path} is shorter than when it was loaded`);
          done += got;
        }
        return out;
      },
    };
    return recordsFromSource(source);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
