/**
 * The Node server's reviews: reviews.json on disk, its records read by offset
 * (src/lib/reviews/records.ts). The file is read once, a span at a time, to
 * find the records and fill the columns, and not kept: the server already
 * answers the build's large files from disk. The descriptor stays open for the process, so
 * a file replaced by rename is still read as it was loaded.
 */
import { fstatSync, openSync, readSync, closeSync } from 'node:fs';
import { recordsFromSource, type RecordSource, type ReviewRecords } from '../lib/reviews/records.ts';

export interface DatasetFile {
  records: ReviewRecords;
  /** The open descriptor the records are read through. */
  descriptor: number;
}

export function openDatasetFile(path: string): DatasetFile {
  const fd = openSync(path, 'r');
  try {
    return { records: recordsFromSource(descriptorSource(fd, path)), descriptor: fd };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The bytes of an open file, by offset (positioned reads: threads may share the descriptor). */
function descriptorSource(fd: number, path: string): RecordSource {
  const readInto = (start: number, end: number, target: Uint8Array, at: number) => {
    for (let done = 0; done < end - start;) {
      const got = readSync(fd, target, at + done, end - start - done, start + done);
      if (got === 0) throw new Error(`${path} is shorter than when it was loaded`);
      done += got;
    }
  };
  return {
    size: fstatSync(fd).size,
    read(start, end) {
      const out = Buffer.allocUnsafeSlow(end - start);
      readInto(start, end, out, 0);
      return out;
    },
    readInto,
  };
}
