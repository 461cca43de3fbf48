import type { Command } from 'commander';
import {
  type CoreClient,
  runPreflight,
  type PreflightReport,
  type PreflightStepName,
  type Connection,
  probeIdentityFeatures,
  type FeatureSupport,
  featureLabels,
  identityFeatures,
} from 'core-client';
import { clientOf, connectionOf, connectionWarnings, describeConnectionSources } from 'core-client/run';
import { ExitCode, isProblem, parseSettings, Problem, type SettingProblem, optional } from 'core-client/settings';
import { CommandOutput, wantsJson } from './command-output.js';
import type { RegisterCommand } from './index.js';
import { addSettingOptions, apiKeyFlagRefusal, settingsInputOf } from './setting-options.js';

const STEP_LABELS: Record<PreflightStepName, string> = {
  reachable: 'reachable',
  keyAccepted: 'api-key',
  tenantExists: 'tenant',
  scryptName: 'scrypt',
};

/** The identity calls beyond the contract, one line each: what a push can keep of a migrated user. */
export function formatIdentityFeatures(support: FeatureSupport): string[] {
  return [
    'Identity features (what a push can keep of who a user was):',
    ...identityFeatures.map((feature) => `  ${(support[feature] ? 'yes' : 'no (404)').padEnd(9)} ${featureLabels[feature]}`),
  ];
}

/** The pre-flight as lines a person reads: one per step, then where the settings came from. */
export function formatPreflightReport(report: PreflightReport, connection: Connection, stack: string | undefined, support?: FeatureSupport): string {
  const lines = [`Pre-flight of ${report.target}`];
  for (const step of report.steps) {
    const core = step.core === undefined ? '' : `[${step.core}] `;
    lines.push(`  ${step.status.padEnd(7)} ${STEP_LABELS[step.name].padEnd(9)} ${core}${step.sentence}`);
  }
  if (support !== undefined) lines.push(...formatIdentityFeatures(support));
  lines.push(`Settings: ${describeConnectionSources(connection, stack)}.`);
  if (connection.signerKeyConfigured !== undefined) {
    lines.push(
      connection.signerKeyConfigured
        ? 'Signer key: configured on the stack (scrypt-variant users can be imported).'
        : 'Signer key: not configured on the stack (scrypt-variant users cannot be imported until signerKey is set).',
    );
  }
  lines.push(report.ok ? 'All checks passed.' : 'Pre-flight failed: see the failed step above.');
  return `${lines.join('\n')}\n`;
}

export const registerCheckCommand: RegisterCommand = (command: Command, { io, setExitCode }) => {
  addSettingOptions(command, 'check').action(async (flags: Record<string, unknown>) => {
    const output = new CommandOutput(io, 'check', { json: wantsJson(flags) });
    const fail = (message: string): void => setExitCode(output.fail(message, ExitCode.usageOrConfiguration));
    const refusal = apiKeyFlagRefusal(flags);
    if (refusal !== undefined) return fail(refusal);
    const settings = parseSettings(settingsInputOf(flags));
    if (Array.isArray(settings)) return setExitCode(output.failWith(settings));
    const connection = await connectionOf(settings, { cwd: io.cwd, env: io.env });
    if (connection instanceof Problem) return setExitCode(output.failWith(connection));
    for (const warning of await connectionWarnings(settings, connection.coreUrls, io.cwd)) output.warn(warning);
    const client: CoreClient | SettingProblem = clientOf(connection, { giveUpAfter: settings.giveUpAfter });
    if (client instanceof Problem) return setExitCode(output.failWith(client));
    let report: PreflightReport;
    let support: FeatureSupport | undefined;
    try {
      report = await runPreflight(client);
      if (report.ok) {
        support = await probeIdentityFeatures(client).catch((error: unknown) => {
          // The check reports what it could read; a probe the core answered oddly leaves the features unknown.
          if (isProblem(error)) return undefined;
          throw error;
        });
      }
    } finally {
      await client.close();
    }
    const resolved = {
      coreUrl: connection.coreUrl,
      coreUrls: connection.coreUrls,
      tenantId: connection.tenantId ?? 'public',
      appId: connection.appId ?? 'public',
      sources: connection.sources,
      ...optional('signerKeyConfigured', connection.signerKeyConfigured),
    };
    output.result(
      { ...report, ...optional('identityFeatures', support), connection: resolved },
      formatPreflightReport(report, connection, settings.stack, support),
    );
    // The failed step is in the report already; its sentence also goes to standard error, where scripts look.
    if (!report.ok) return setExitCode(output.fail(report.failure?.sentence ?? 'the pre-flight failed.', ExitCode.coreUnreachableOrKeyRefused));
    setExitCode(ExitCode.ok);
  });
};
