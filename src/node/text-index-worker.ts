/**
 * The child process of text-index-process.ts: reads the records of reviews.json
 * through the descriptor the server opened and passed on (the same file it
 * loaded, even if replaced since), folds their texts, builds the text index's
 * parts and sends them (their typed arrays written to the server's scratch file
 * when it made one), then ends, and the builder's garbage (the folded texts,
 * the growing postings: hundreds of MB at 100k reviews) goes with it.
 */
import { foldedTexts } from '../lib/reviews/index.ts';
import { recordsFromSource } from '../lib/reviews/records.ts';
import { buildTextIndexParts } from '../lib/reviews/text-index.ts';
import { descriptorSource } from './dataset-file.ts';
import { ARRAYS_IN_FILE, CHILD_ARRAYS_DESCRIPTOR, CHILD_DESCRIPTOR } from './text-index-process.ts';
import { writeTypedArrays } from './typed-arrays-file.ts';

const built = buildTextIndexParts(foldedTexts(recordsFromSource(descriptorSource(CHILD_DESCRIPTOR, process.argv[2]!))));
const parts = process.argv[3] === ARRAYS_IN_FILE ? writeTypedArrays(built, CHILD_ARRAYS_DESCRIPTOR) : built;
// A server that stopped meanwhile has closed the channel: nobody to send the index to.
if (process.connected) {
  process.send!(parts, undefined, {}, (error) => {
    if (error && process.connected) console.error('text index process: sending the index failed:', error);
    if (process.connected) process.disconnect();
  });
}
