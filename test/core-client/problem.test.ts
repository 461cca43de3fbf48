import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../core-client/src/connection/errors.js';
import { CoreClientConfigError, resolveCoreTargets } from '../../core-client/src/http/target.js';
import { ExitCode, Problem, problemExitCodes } from '../../core-client/src/problem.js';
import { describeProblem, runProblem, settingProblem } from '../../core-client/src/settings/setting-problem.js';
import { settingName } from '../../core-client/src/settings/setting-flags.js';
import { SyncRefusedError } from '../../core-client/src/sync/sync-guard.js';
import { OutputPathError } from '../../core-client/src/files/output-paths.js';
import { HashConfigError } from '../../core-client/src/hashes/hash-config.js';
import { PrefixRuleError } from '../../core-client/src/hashes/prefix-rules.js';
import { AuthRejected, RecordRejected, TlsFailed, Transient } from '../../core-client/src/http/errors.js';
import { IdentityProbeError } from '../../core-client/src/identity/features.js';
import { JournalError } from '../../core-client/src/journal/journal.js';
import { VerifierPoolBusy, VerifierPoolClosed, VerifierThreadLost } from '../../core-client/src/hashes/legacy/verifier-pool.js';
import { WaitingStoreError } from '../../core-client/src/login-time/store/waiting-store.js';
import { buildProviderMap } from '../../core-client/src/plan/providers.js';
import { parseCredentials } from '../../core-client/src/push/credentials.js';
import { JournalReadError } from '../../core-client/src/rollback/journal-users.js';
import { SourceError } from '../../core-client/src/sources/source-error.js';

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
    ['oldSystem', ExitCode.coreUnreachableOrKeyRefused],
    ['record', ExitCode.someRecordsFailed],
  ] as const)('a %s problem exits with %i', (kind, exitCode) => {
    expect(runProblem('preflightFailed', kind, 'a sentence').exitCode).toBe(exitCode);
    expect(problemExitCodes[kind]).toBe(exitCode);
  });

  it('words that differ between the faces beyond the name are given per face', () => {
    const problem = runProblem('syncRefused', 'journal', (face) => (face === 'flags' ? 'run again with --ignore-overlap' : 'set the field'), 'ignoreOverlap');
    expect(describeProblem(problem, 'flags')).toBe('run again with --ignore-overlap');
    expect(describeProblem(problem, 'app')).toBe('set the field');
  });

  it('a full verifier pool names both settings that make room, as the command line names them', () => {
    expect(describeProblem(new VerifierPoolBusy(4), 'flags')).toBe(
      'every verifier thread is busy and 4 checks already wait: give more threads (--verifiers) or a longer queue (--max-queued-checks)',
    );
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

  it.each([
    ['a bad provider map', buildProviderMap(['nonsense']), 'providerMapInvalid', 'setting', 'providerMap', ExitCode.usageOrConfiguration],
    ['a bad hash config', new HashConfigError('rounds is missing', 'rounds'), 'hashConfigInvalid', 'setting', 'hashConfig', ExitCode.usageOrConfiguration],
    [
      'a bad --strip-prefix',
      new PrefixRuleError('--strip-prefix needs a non-empty prefix'),
      'stripPrefixInvalid',
      'setting',
      'stripPrefix',
      ExitCode.usageOrConfiguration,
    ],
    [
      'a broken export',
      new SourceError('truncated', { file: 'users.json' }, 'cut short'),
      'source.truncated',
      'setting',
      'file',
      ExitCode.usageOrConfiguration,
    ],
    ['an unusable credentials file', parseCredentials('', 'known.txt'), 'credentialsUnreadable', 'setting', 'verifyCredentials', ExitCode.usageOrConfiguration],
    ['a refused output', new OutputPathError('The report cannot be written.', 'report'), 'outputRefused', 'setting', 'report', ExitCode.usageOrConfiguration],
    ['a journal a push refuses', new JournalError('The journal is locked.'), 'journalRefused', 'journal', 'journal', ExitCode.usageOrConfiguration],
    [
      'a journal a rollback cannot read',
      new JournalReadError('The journal is empty.'),
      'journalUnreadable',
      'journal',
      'journal',
      ExitCode.usageOrConfiguration,
    ],
    [
      'a waiting store that cannot be opened',
      new WaitingStoreError('waitingStoreUnavailable', 'the waiting store /srv/w.sqlite does not exist'),
      'waitingStoreUnavailable',
      'setting',
      'loginTime',
      ExitCode.usageOrConfiguration,
    ],
    [
      'a waiting store of a newer core-migrate',
      new WaitingStoreError('waitingStoreRefused', 'the waiting store /srv/w.sqlite is of version 9'),
      'waitingStoreRefused',
      'setting',
      'loginTime',
      ExitCode.usageOrConfiguration,
    ],
    ['a full verifier pool', new VerifierPoolBusy(4), 'verifierPoolBusy', 'setting', 'maxQueuedChecks', ExitCode.usageOrConfiguration],
    ['a closed verifier pool', new VerifierPoolClosed(), 'verifierPoolClosed', 'setting', undefined, ExitCode.usageOrConfiguration],
    ['a verifier thread lost during a check', new VerifierThreadLost(), 'verifierThreadLost', 'setting', undefined, ExitCode.usageOrConfiguration],
    ['an unreadable probe answer', new IdentityProbeError('roles', 'a 500'), 'identityProbeFailed', 'core', 'core', ExitCode.coreUnreachableOrKeyRefused],
    ['a refused key', new AuthRejected('The core refused the api-key.'), 'authRejected', 'core', 'core', ExitCode.coreUnreachableOrKeyRefused],
    [
      'a failed TLS handshake',
      new TlsFailed('No TLS.', 'notTls', 'ERR_SSL_WRONG_VERSION_NUMBER'),
      'tlsFailed',
      'core',
      'core',
      ExitCode.coreUnreachableOrKeyRefused,
    ],
    ['a busy core', new Transient('The core is busy.', 'rateLimited', undefined), 'transient', 'core', 'core', ExitCode.coreUnreachableOrKeyRefused],
    [
      'a record the core refused',
      new RecordRejected('Refused.', 'Password hash is in invalid format'),
      'recordRejected',
      'record',
      'core',
      ExitCode.someRecordsFailed,
    ],
  ])('every error class of core-client is a problem: %s', (_, problem, code, kind, setting, exitCode) => {
    expect(problem).toBeInstanceOf(Problem);
    expect(problem).toMatchObject({ code, kind, setting, exitCode });
  });
});
