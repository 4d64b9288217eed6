/**
 * Export files are UTF-8. Node decodes any other bytes to U+FFFD without a word, so a file
 * saved in another encoding (Excel's plain "CSV" is Windows-1252) would import with its accents
 * replaced; such a file is refused instead, with where its first foreign byte is.
 */
import { isUtf8 } from 'node:buffer';

/** Why `bytes` is not UTF-8 (the row or line and the byte offset of its first invalid byte), or undefined when it is. */
export function notUtf8Problem(bytes: Buffer, csv: boolean): string | undefined {
  if (isUtf8(bytes)) return undefined;
  // The replacement-decoded text encodes back to the same bytes up to the first invalid one.
  const again = Buffer.from(bytes.toString('utf8'), 'utf8');
  let offset = 0;
  while (offset < bytes.length && bytes[offset] === again[offset]) offset += 1;
  // A truncated sequence can share its first bytes with U+FFFD's (EF BF): point at its lead byte.
  while (offset > 0 && !isUtf8(bytes.subarray(0, offset))) offset -= 1;
  const before = bytes.subarray(0, offset).toString('utf8');
  const where = csv ? `row ${csvRow(before)}` : `line ${before.split('\n').length}`;
  const byte = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0');
  return (
    `not UTF-8: ${where} has the byte 0x${byte} at byte offset ${offset}, which UTF-8 does not allow. ` +
    'The file was most likely saved as Latin-1 / Windows-1252 (Excel\'s "CSV (Comma delimited)" does this): ' +
    'open it and save it again as UTF-8 (Excel: "CSV UTF-8 (Comma delimited)"; LibreOffice or Numbers: ' +
    'character set "Unicode (UTF-8)"; a text editor: encoding UTF-8), then import it again'
  );
}

/** The CSV row (1 = the header) that the text after `before` is in: line breaks inside quotes do not end a row. */
function csvRow(before: string): number {
  let row = 1;
  let quoted = false;
  for (const char of before) {
    if (char === '"') quoted = !quoted;
    else if (char === '\n' && !quoted) row += 1;
  }
  return row;
}
