/** The languages of the `locale` attribute: one file each, listed here. */
import en from './en.ts';
import es from './es.ts';
import type { Labels } from './labels.ts';

export const LABELS = { en, es } satisfies Record<string, Labels>;
export type Locale = keyof typeof LABELS;
export const LOCALES = Object.keys(LABELS) as Locale[];
