/** The exit codes every command shares, and the terminal app ends with: scripts and CI rely on them. */
export const ExitCode = {
  ok: 0,
  someRecordsFailed: 1,
  usageOrConfiguration: 2,
  coreUnreachableOrKeyRefused: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The few families of problems a face acts on, each with its exit code: the one place that says which. */
export const problemExitCodes = {
  /** A setting's value, or the file it names: the operator changes the setting. */
  setting: ExitCode.usageOrConfiguration,
  /** The journal (or an output beside it) is missing, locked, of another core, or refuses what was asked. */
  journal: ExitCode.usageOrConfiguration,
  /** The core cannot be reached, refuses the key, fails TLS or the pre-flight: nothing was sent. */
  core: ExitCode.coreUnreachableOrKeyRefused,
  /** The old system `login-migration serve --verify-with` asks cannot be reached: as for its core, nothing is served. */
  oldSystem: ExitCode.coreUnreachableOrKeyRefused,
  /** The core refused one record (its answer says why): the run goes on, and ends with some records failed. */
  record: ExitCode.someRecordsFailed,
} as const;
export type ProblemKind = keyof typeof problemExitCodes;

/** Whose words: the command line names a setting by its flag, the terminal app by its field's label. */
export type ProblemFace = 'flags' | 'app';

/**
 * A sentence with `{setting}` where the setting is named, or (when more than the name differs between the faces, or
 * it names more than one setting) the sentence in each face's terms, with `name` giving any setting's name there.
 */
export type ProblemWords<Setting extends string = string> = string | ((face: ProblemFace, name: (setting: Setting) => string) => string);

const SETTING_PLACEHOLDER = '{setting}';

/**
 * Everything core-client refuses or fails at, as data: a stable `code` (what went wrong, for code and tests), its
 * `kind` (which decides the exit code), the setting that fixes it (a key of the settings table, never a phrase), and
 * the words, which a face turns into its own terms at one boundary (`describeProblem` in settings/). `Setting` is the
 * type of that key: a lower folder names the few settings it knows as literals, which the settings table checks;
 * `Code` is the union of its codes (settings/setting-problem.ts gathers every one).
 * `message` is the words with the setting left as its placeholder: faces never print it.
 */
export class Problem<Setting extends string = string, Code extends string = string> extends Error {
  override readonly name: string = 'Problem';
  readonly exitCode: ExitCode;

  constructor(
    readonly code: Code,
    readonly kind: ProblemKind,
    readonly setting: Setting | undefined,
    readonly words: ProblemWords<Setting>,
    options?: ErrorOptions,
  ) {
    super(typeof words === 'string' ? words : words('flags', () => SETTING_PLACEHOLDER), options);
    this.exitCode = problemExitCodes[kind];
  }

  /** The words for `face`, with the setting named as `nameOf` says. */
  describe(face: ProblemFace, nameOf: (setting: Setting) => string): string {
    const sentence = typeof this.words === 'string' ? this.words : this.words(face, nameOf);
    return this.setting === undefined ? sentence : sentence.replace(SETTING_PLACEHOLDER, nameOf(this.setting));
  }
}

export function isProblem(value: unknown): value is Problem {
  return value instanceof Problem;
}
