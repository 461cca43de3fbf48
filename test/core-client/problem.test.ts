import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../core-client/src/connection/errors.js';
import { CoreClientConfigError, resolveCoreTargets } from '../../core-client/src/http/target.js';
import { ExitCode, Problem, problemExitCodes } from '../../core-client/src/problem.js';
import { describeProblem, runProblem, settingProblem } from '../../core-client/src/settings/setting-problem.js';
import { settingName } from '../../core-client/src/settings/setting-flags.js';
import { SyncRefusedError } from '../../core-client/src/sync/sync-guard.js';

describe('one problem type: a code, a kind that decides the exit code, the setting as data, words per face', () => {
  it('names the setting in each face at the one boundary, and keeps the placeholder out of the data', () => {
    const problem = settingProblem('hashConfigInvalid', 'hashConfig', '{setting} hash_config.txt: no signer key');
    expect([problem.code, problem.kind, problem.setting, problem.exitCode]).toEqual([
      'hashConfigInvalid',
      'setting',
      'hashConfig',
      ExitCode.usageOrConfiguration,
    ]);
    expect(describeProblem(problem, 'flags')).toBe('--hash-config hash_config.txt: no signer key');
    expect(describeProblem(problem, 'app')).toBe(`${settingName('hashConfig', 'app')} hash_config.txt: no signer key`);
  });

  it.each([
    ['setting', ExitCode.usageOrConfiguration],
    ['journal', ExitCode.usageOrConfiguration],
    ['core', ExitCode.coreUnreachableOrKeyRefused],
  ] as const)('a %s problem exits with %i', (kind, exitCode) => {
    expect(runProblem('preflightFailed', kind, 'a sentence').exitCode).toBe(exitCode);
    expect(problemExitCodes[kind]).toBe(exitCode);
  });

  it('words that differ between the faces beyond the name are given per face', () => {
    const problem = runProblem('syncRefused', 'journal', (face) => (face === 'flags' ? 'run again with --ignore-overlap' : 'set the field'), 'ignoreOverlap');
    expect(describeProblem(problem, 'flags')).toBe('run again with --ignore-overlap');
    expect(describeProblem(problem, 'app')).toBe('set the field');
  });

  it("words may name several settings, each in its face's terms", () => {
    const forecast = { journalUsers: 10, recognised: 1, minOverlapPercent: 50, removals: 0, removalLimit: 0, removalsWithheld: false };
    const refused = new SyncRefusedError(forecast);
    expect([refused.code, refused.kind, refused.setting, refused.exitCode]).toEqual(['syncRefused', 'journal', 'ignoreOverlap', ExitCode.usageOrConfiguration]);
    expect(describeProblem(refused, 'flags')).toMatch(/^1 of the journal's 10 users .*\(--journal\); if both are right, run again with --ignore-overlap\.$/);
    const ignore = settingName('ignoreOverlap', 'app');
    expect(describeProblem(refused, 'app')).toContain(`(${settingName('journal', 'app')}); if both are right, set "${ignore}" to yes.`);
    expect(refused.message).not.toContain('--');
  });

  it('a connection problem and a client option the client refuses are problems that carry their setting', () => {
    const connection = new ConnectionError('caFileUnusable', 'check the path given to {setting}');
    expect(connection).toBeInstanceOf(Problem);
    expect([connection.code, connection.setting]).toEqual(['caFileUnusable', 'caFile']);
    expect(describeProblem(connection, 'flags')).toBe('check the path given to --ca-file');
    let refused: unknown;
    try {
      resolveCoreTargets({ baseUrl: 'http://127.0.0.1:3567', appId: 'App A' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(CoreClientConfigError);
    expect(refused).toMatchObject({ code: 'appInvalid', setting: 'app', exitCode: ExitCode.usageOrConfiguration });
  });
});
