/** The exit codes every headless command shares; scripts and CI rely on them. */
export const ExitCode = {
  ok: 0,
  someRecordsFailed: 1,
  usageOrConfiguration: 2,
  coreUnreachableOrKeyRefused: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
