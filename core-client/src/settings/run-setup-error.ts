import { ExitCode } from './verdict.js';
import { type SettingError } from './setting-error.js';
import type { SettingFace } from './setting-flags.js';
import type { SettingKey } from './settings.js';

/**
 * Why a run could not start (or stopped before its first operation): its exit code, the setting that fixes it when
 * one does, and a sentence in each face's terms. Nothing was sent when it is returned.
 */
export class RunSetupError extends Error {
  override readonly name = 'RunSetupError';
  readonly kind = 'runSetupError';

  constructor(
    readonly exitCode: ExitCode,
    readonly setting: SettingKey | undefined,
    readonly describe: (face: SettingFace) => string,
  ) {
    super(describe('flags'));
  }

  static of(error: SettingError, exitCode: ExitCode = ExitCode.usageOrConfiguration): RunSetupError {
    return new RunSetupError(exitCode, error.setting, (face) => error.describe(face));
  }

  static sentence(exitCode: ExitCode, sentence: string, setting?: SettingKey): RunSetupError {
    return new RunSetupError(exitCode, setting, () => sentence);
  }
}

export function isRunSetupError(value: unknown): value is RunSetupError {
  return value instanceof RunSetupError;
}
