/** Reading one record's fields, each problem named by the export's own field. */
import { describe, ValueError } from './values.ts';
import type { ImportProblem } from './types.ts';

export class RecordReader {
  readonly problems: ImportProblem[] = [];
  private readonly file: string;
  readonly at: string;

  constructor(file: string, at: string) {
    this.file = file;
    this.at = at;
  }

  /** `convert(value)`, or undefined with the problem noted when it throws a ValueError. */
  read<T>(field: string, value: unknown, convert: (value: unknown) => T): T | undefined {
    try {
      return convert(value);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      this.problem(field, error.message);
      return undefined;
    }
  }

  problem(field: string, message: string): void {
    this.problems.push({ file: this.file, at: this.at, field, message });
  }
}

/** An optional string field: absent, null and blank are undefined; anything but a string is an error. */
export function optionalString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ValueError(`expected text, got ${describe(value)}`);
  return value.trim() === '' ? undefined : value.trim();
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
