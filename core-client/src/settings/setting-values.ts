import { z } from 'zod';

/** An empty field (the app) and an absent flag (the command line) mean the same: not set. */
export const unset = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const optionalText = z.preprocess(unset, z.string().trim().optional());

/** A whole number typed (text) or given (a number), within its limits; the message says which and what was given. */
export function optionalWholeNumber(min: number, max: number, what: string) {
  return z.preprocess(
    unset,
    z
      .union([z.number(), z.string()])
      .transform((value, context) => {
        const number = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
        if (!Number.isInteger(number) || number < min || number > max) {
          context.addIssue({ code: 'custom', message: `must be ${what} from ${min} to ${max}, not "${String(value).trim()}"` });
          return z.NEVER;
        }
        return number;
      })
      .optional(),
  );
}
export const textList = z.array(z.string()).default([]);
