import { Problem } from '../problem.js';

/**
 * Prefixes and wrappers that some systems put around a standard hash. Each has a name, which the plan counts
 * and reports, so nothing is stripped silently.
 */
export interface PrefixRule {
  name: string;
  /** An exact prefix, or a regular expression matched at the start of the hash. */
  match: string | RegExp;
}

/** The wrappers recognised and stripped by default, in the order they are tried. */
export const builtInWrapperRules: readonly PrefixRule[] = [
  // Django's BCryptPasswordHasher writes `bcrypt$` before the whole modular crypt string.
  { name: 'django bcrypt$', match: /^bcrypt\$(?=\$2[abxy]?\$)/ },
  // Django's Argon2PasswordHasher writes `argon2` before the encoded string (so `argon2$argon2id$…`).
  { name: 'django argon2$', match: /^argon2(?=\$argon2(?:id|i|d)\$)/ },
  // Spring Security's DelegatingPasswordEncoder writes the encoder id in braces.
  { name: 'spring {bcrypt}', match: /^\{bcrypt\}(?=\$2)/ },
  { name: 'spring {argon2}', match: /^\{argon2\}(?=\$argon2)/ },
];

export const builtInWrapperNames: readonly string[] = builtInWrapperRules.map((rule) => rule.name);

/** A `--strip-prefix` value that cannot be used; the message says what to write instead. */
export class PrefixRuleError extends Problem<'stripPrefix', 'stripPrefixInvalid'> {
  override readonly name = 'PrefixRuleError';

  constructor(words: string) {
    super('stripPrefixInvalid', 'setting', 'stripPrefix', words);
  }
}

const REGEX_MARK = 're:';
const EXACT_MARK = 'exact:';

/**
 * Reads an operator's `--strip-prefix` value:
 * - `re:<pattern>`: a JavaScript regular expression, matched at the start of the hash (`^` is implied);
 * - `exact:<text>`: exactly that text (use it when the prefix itself begins with `re:` or `exact:`);
 * - anything else: exactly that text.
 */
export function prefixRuleFromOption(option: string): PrefixRule | PrefixRuleError {
  if (option.startsWith(REGEX_MARK)) {
    const pattern = option.slice(REGEX_MARK.length);
    if (pattern.length === 0) return new PrefixRuleError('--strip-prefix re: needs a pattern after "re:"');
    try {
      return { name: `operator ${option}`, match: new RegExp(`^(?:${pattern})`) };
    } catch {
      return new PrefixRuleError(`--strip-prefix ${option}: not a valid regular expression`);
    }
  }
  const text = option.startsWith(EXACT_MARK) ? option.slice(EXACT_MARK.length) : option;
  if (text.length === 0) return new PrefixRuleError('--strip-prefix needs a non-empty prefix');
  return { name: `operator prefix "${text}"`, match: text };
}

/** The text a rule strips from the start of `hash`, or `undefined` when it does not apply. */
export function matchedPrefix(rule: PrefixRule, hash: string): string | undefined {
  if (typeof rule.match === 'string') return hash.startsWith(rule.match) ? rule.match : undefined;
  const pattern = rule.match.global || rule.match.sticky ? new RegExp(rule.match.source, rule.match.flags.replace(/[gy]/g, '')) : rule.match;
  const found = pattern.exec(hash);
  return found !== null && found.index === 0 && found[0].length > 0 ? found[0] : undefined;
}
