/**
 * A container image reference as Docker reads it: `[host[:port]/]path[:tag][@sha256:<64 hex>]`.
 * The grammar follows distribution/reference, restricted to sha256 digests (what registries hand out).
 */
export interface ImageReference {
  /** Everything before the tag and digest, e.g. `registry.example:5000/team/auth-core`. */
  repository: string;
  tag?: string;
  /** `sha256:<64 hex>`: the image no longer depends on where a tag points. */
  digest?: string;
}

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REPOSITORY = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
const REFERENCE = new RegExp(`^(?<repository>${REPOSITORY})(?::(?<tag>${TAG}))?(?:@(?<digest>[^@]+))?$`);

export type ImageReferenceProblem = 'notAReference' | 'badDigest';

export function parseImageReference(text: string): ImageReference | ImageReferenceProblem {
  const groups = REFERENCE.exec(text)?.groups;
  const repository = groups?.['repository'];
  if (groups === undefined || repository === undefined) return 'notAReference';
  const { tag, digest } = groups;
  if (digest !== undefined && !DIGEST_PATTERN.test(digest)) return 'badDigest';
  return { repository, ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) };
}

export function isPinned(reference: ImageReference): boolean {
  return reference.digest !== undefined;
}

export function formatImageReference(reference: ImageReference): string {
  return `${reference.repository}${reference.tag === undefined ? '' : `:${reference.tag}`}${reference.digest === undefined ? '' : `@${reference.digest}`}`;
}
