import type { Command } from 'commander';
import { ConnectionError } from 'core-client/connection/errors';
import { CoreClient } from 'core-client/http/core-client';
import { CoreClientConfigError } from 'core-client/http/target';
import { isCoreError } from 'core-client/http/errors';
import { runPreflight, type PreflightReport, type PreflightStepName } from 'core-client/connection/preflight';
import type { Connection } from 'core-client/connection/resolve-connection';
import { IdentityProbeError, probeIdentityFeatures, type FeatureSupport } from 'core-client/identity/features';
import { featureLabels, identityFeatures } from 'core-client/identity/options';
import { ExitCode } from '../exit-codes.js';
import { addConnectionOptions, connectionFromOptions, describeConnectionSources, type ConnectionFlags } from './connection-options.js';
import { commandCatalogue } from './catalogue.js';
import { plainHttpWarning } from 'core-client/files/exposure-warnings';
import { printableJson, printableLines } from 'core-client/printable';
import { exposedSecretWarnings } from './file-safety.js';
import type { RegisterCommand } from './index.js';

interface CheckFlags extends ConnectionFlags {
  json?: boolean;
}

const STEP_LABELS: Record<PreflightStepName, string> = {
  reachable: 'reachable',
  keyAccepted: 'api-key',
  tenantExists: 'tenant',
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

export const registerCheckCommand: RegisterCommand = (program: Command, { io, setExitCode }) => {
  const command = program.command('check').description(commandCatalogue.check.description).option('--json', 'print one JSON object instead of lines');
  addConnectionOptions(command).action(async (flags: CheckFlags) => {
    const connection = await connectionFromOptions(flags, io);
    if (connection instanceof ConnectionError) {
      io.stderr.write(printableLines(`core-migrate check: ${connection.message}\n`));
      setExitCode(ExitCode.usageOrConfiguration);
      return;
    }
    const warnings = await exposedSecretWarnings([{ path: flags.apiKeyFile, holds: 'the api-key' }], io.cwd);
    const clearText = connection.coreUrls.flatMap((url) => plainHttpWarning(url) ?? []);
    for (const warning of [...warnings, ...clearText]) io.stderr.write(`${printableLines(warning)}\n`);
    let client: CoreClient;
    try {
      client = new CoreClient({
        baseUrl: connection.coreUrls,
        apiKey: connection.apiKey,
        ...(connection.tenantId === undefined ? {} : { tenantId: connection.tenantId }),
        ...(connection.appId === undefined ? {} : { appId: connection.appId }),
      });
    } catch (error) {
      if (!(error instanceof CoreClientConfigError)) throw error;
      io.stderr.write(printableLines(`core-migrate check: ${error.message}\n`));
      setExitCode(ExitCode.usageOrConfiguration);
      return;
    }
    let report: PreflightReport;
    let support: FeatureSupport | undefined;
    try {
      report = await runPreflight(client);
      if (report.ok) {
        support = await probeIdentityFeatures(client).catch((error: unknown) => {
          if (isCoreError(error) || error instanceof IdentityProbeError) return undefined;
          throw error;
        });
      }
    } finally {
      await client.close();
    }
    if (flags.json === true) {
      const settings = {
        coreUrl: connection.coreUrl,
        coreUrls: connection.coreUrls,
        tenantId: connection.tenantId ?? 'public',
        appId: connection.appId ?? 'public',
        sources: connection.sources,
        ...(connection.signerKeyConfigured === undefined ? {} : { signerKeyConfigured: connection.signerKeyConfigured }),
      };
      io.stdout.write(`${printableJson({ ...report, ...(support === undefined ? {} : { identityFeatures: support }), connection: settings })}\n`);
    } else {
      io.stdout.write(printableLines(formatPreflightReport(report, connection, flags.stack, support)));
    }
    if (!report.ok) {
      if (flags.json !== true) io.stderr.write(printableLines(`core-migrate check: ${report.failure?.sentence ?? 'the pre-flight failed.'}\n`));
      setExitCode(ExitCode.coreUnreachableOrKeyRefused);
      return;
    }
    setExitCode(ExitCode.ok);
  });
};
