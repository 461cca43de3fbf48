import { z } from 'zod';
import { parseImageReference } from './image-reference.js';

/** The stack config namespace: `pulumi config set` without a prefix writes here, because it is the project name. */
export const CONFIG_NAMESPACE = 'core-migrate';

/** How to fix a key, as the exact command an operator types (secrets always with --secret). */
export function setCommand(key: string, placeholder: string, secret = false): string {
  return `pulumi config set${secret ? ' --secret' : ''} ${CONFIG_NAMESPACE}:${key} ${placeholder}`;
}

/** A whole number as `pulumi config` stores it (text), within bounds; one sentence for every way it can be wrong. */
export function wholeNumber(min: number, max: number, error: string) {
  return z.string().regex(/^\d+$/, { error }).transform(Number).pipe(z.number().int().min(min, { error }).max(max, { error }));
}

export type ImageKey = 'image' | 'postgresImage' | 'loginServiceImage';

/** An image reference, tagged or pinned by digest; the sentence says which part is wrong. */
export function imageReference(key: ImageKey, example: string) {
  return z.string().superRefine((value, context) => {
    const parsed = parseImageReference(value);
    if (parsed === 'notAReference') {
      context.addIssue({
        code: 'custom',
        message: `${CONFIG_NAMESPACE}:${key} is not an image reference: run \`${setCommand(key, example)}\` (registry/repository:tag), or pin it: \`${setCommand(key, `${example}@sha256:<digest>`)}\`.`,
      });
    } else if (parsed === 'badDigest') {
      context.addIssue({
        code: 'custom',
        message: `${CONFIG_NAMESPACE}:${key} has a digest that is not sha256: and 64 lowercase hex digits: copy it whole from the Digest: line of \`docker buildx imagetools inspect <image>\`.`,
      });
    }
  });
}
