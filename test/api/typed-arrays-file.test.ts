/**
 * The text index's typed arrays handed from the child process through a scratch
 * file (src/node/typed-arrays-file.ts): every typed array of a structure comes
 * back with its type, length and values, in a buffer of its own; the rest of the
 * structure is untouched; the file has no name while open.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { serialize, deserialize } from 'node:v8';
import { openScratchFile, ownedTypedArrays, restoreTypedArrays, writeTypedArrays } from '../../src/node/typed-arrays-file.ts';

const shared = new Uint32Array([9, 8, 7, 6, 5, 4]);
const value = () => ({
  n: 3,
  words: ['roof', 'leak'],
  sets: new Map<number, Int32Array | Uint32Array>([
    [1, Int32Array.of(-1, 2, 3)],
    [65_536, shared.subarray(2, 5)],
  ]),
  nested: { keys: Uint16Array.of(1, 65_535), empty: new Float64Array(0), lists: [Uint8Array.of(255), [Int32Array.of(7)]] },
  trigrams: new Map([['roo', [0, 1]]]),
});

it('typed arrays written to a scratch file come back whole, each in its own buffer', () => {
  const scratch = openScratchFile('typed-arrays-test-');
  assert.ok(scratch, 'a scratch file in the temporary folder');
  try {
    // Through a message, as the child sends it.
    const sent = deserialize(serialize(writeTypedArrays(value(), scratch.fd)));
    const got = restoreTypedArrays(sent, scratch.fd);
    assert.deepEqual(got, value());
    const sets = [...got.sets.values()];
    assert.ok(sets[0] instanceof Int32Array && sets[1] instanceof Uint32Array, 'types kept');
    assert.equal(sets[1]!.buffer.byteLength, 3 * 4, 'a view comes back as an array of its own');
  } finally {
    scratch.close();
  }
});

const dir = mkdtempSync(join(tmpdir(), 'typed-arrays-tmp-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('the scratch file has no name while open, and none can be made in a folder that does not exist', { skip: process.platform === 'win32' }, () => {
  const before = process.env.TMPDIR;
  try {
    process.env.TMPDIR = dir;
    const scratch = openScratchFile('typed-arrays-test-');
    assert.ok(scratch);
    assert.deepEqual(readdirSync(dir), [], 'nothing left in the temporary folder');
    scratch.close();
    process.env.TMPDIR = join(dir, 'missing');
    assert.equal(openScratchFile('typed-arrays-test-'), undefined);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
});

it('without a file, the arrays of a message are copied out of its one buffer', () => {
  const got = ownedTypedArrays(deserialize(serialize(value())) as ReturnType<typeof value>);
  assert.deepEqual(got, value());
  for (const set of got.sets.values()) assert.equal(set.buffer.byteLength, set.byteLength);
});
