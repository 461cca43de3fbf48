import { execFile } from 'node:child_process';
import { z } from 'zod';
import { Secret } from '../secret.js';
import { ConnectionError } from './errors.js';
import { StackOutputsSchema, stackCoreUrls, type StackDatabase } from './stack-outputs.js';

export interface PulumiCliOptions {
  /** The executable to run; default `pulumi`, looked up on the PATH of `env`. */
  pulumiBinary?: string;
  /** The folder of Pulumi.yaml: stack names belong to a project. Default: the current directory. */
  cwd?: string;
  /** Where the CLI's environment is taken from; only what it needs is passed on (`pulumiEnvironment`). Default: process.env. */
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_BINARY = 'pulumi';
/** The CLI may wait on a backend or a lock; a connection step should not hang forever on it. */
const PULUMI_TIMEOUT_MS = 120_000;
const MAX_QUOTED_STDERR = 400;

export interface StackConnection {
  coreUrl: string;
  /** One per core replica, coreUrl first. */
  coreUrls: string[];
  apiKey: Secret;
  signerKeyConfigured: boolean;
  database: StackDatabase;
}

/**
 * What the Pulumi CLI needs to find itself, its state and its secrets: its own settings (PULUMI_*: backend, access
 * token, passphrase), the credentials of a cloud backend or secrets provider, the home and temp folders, locale,
 * certificates and proxies. Nothing else reaches it: above all not CORE_API_KEY or whatever else the shell holds.
 */
const PULUMI_ENV_NAMES: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LANGUAGE',
  'TZ',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_RUNTIME_DIR',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  // Windows: where the profile, the system and executables are.
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'SYSTEMROOT',
  'SystemRoot',
  'PATHEXT',
  'COMSPEC',
]);
const PULUMI_ENV_PREFIXES = ['PULUMI_', 'LC_', 'AWS_', 'AZURE_', 'ARM_', 'GOOGLE_', 'CLOUDSDK_', 'VAULT_'] as const;

/** The part of `env` the Pulumi CLI gets (see PULUMI_ENV_NAMES). */
export function pulumiEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const passed: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (PULUMI_ENV_NAMES.has(name) || PULUMI_ENV_PREFIXES.some((prefix) => name.startsWith(prefix))) passed[name] = value;
  }
  return passed;
}

const StackListSchema = z.array(z.looseObject({ name: z.string() }));

/** Runs the Pulumi CLI without a shell; resolves to its stdout, or a ConnectionError saying what to do. */
function runPulumi(args: readonly string[], options: PulumiCliOptions, doing: string): Promise<string | ConnectionError> {
  const binary = options.pulumiBinary ?? DEFAULT_BINARY;
  const env = { ...pulumiEnvironment(options.env ?? process.env), PULUMI_SKIP_UPDATE_CHECK: 'true' };
  return new Promise((resolve) => {
    execFile(
      binary,
      [...args],
      { cwd: options.cwd, env, timeout: PULUMI_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          resolve(
            new ConnectionError(
              'pulumiMissing',
              `The Pulumi CLI ("${binary}") was not found on PATH, so ${doing} is not possible: install it ` +
                '(https://www.pulumi.com/docs/iac/download-install/), or give the core with --core and the key ' +
                'with CORE_API_KEY or --api-key-file instead of {setting}.',
            ),
          );
          return;
        }
        resolve(new ConnectionError('pulumiFailed', pulumiFailure(`pulumi ${args.join(' ')}`, stderr, error.killed === true)));
      },
    );
  });
}

function pulumiFailure(command: string, stderr: string, killed: boolean): string {
  if (killed) return `\`${command}\` did not finish in ${PULUMI_TIMEOUT_MS / 1000}s: check that the Pulumi backend is reachable (pulumi whoami).`;
  const said = firstErrorLine(stderr);
  const hint = /passphrase/i.test(stderr)
    ? "set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the stack's passphrase"
    : /no stack named|stack .* not found|could not find stack/i.test(stderr)
      ? 'check the name with `pulumi stack ls`, run from the folder that holds Pulumi.yaml, and log in to the backend that holds the stack'
      : 'run it yourself to see the whole message';
  return `\`${command}\` failed${said === '' ? '' : ` (${said})`}: ${hint}.`;
}

function firstErrorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const line = lines.find((candidate) => /^error:/i.test(candidate)) ?? lines[0] ?? '';
  return line.length > MAX_QUOTED_STDERR ? `${line.slice(0, MAX_QUOTED_STDERR)}…` : line;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads a stack's outputs with `pulumi stack output --json --show-secrets --stack NAME`.
 * The api-key is wrapped in a Secret as soon as it is parsed, and no message ever quotes the outputs.
 */
export async function readStackConnection(stack: string, options: PulumiCliOptions = {}): Promise<StackConnection | ConnectionError> {
  const stdout = await runPulumi(['stack', 'output', '--json', '--show-secrets', '--stack', stack], options, `reading stack "${stack}"`);
  if (stdout instanceof ConnectionError) return stdout;
  const parsed = StackOutputsSchema.safeParse(parseJson(stdout));
  if (!parsed.success) {
    const missing = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'outputs')))];
    const named = missing.length === 1 ? `${missing[0]} output` : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)} outputs`;
    return new ConnectionError(
      'stackOutputsMissing',
      `Stack "${stack}" has no usable ${named}: run \`pulumi up --stack ${stack}\` with this project's infra program ` +
        'first, or pass --core and CORE_API_KEY / --api-key-file instead of {setting}.',
    );
  }
  const outputs = parsed.data;
  return {
    coreUrl: outputs.coreUrl,
    coreUrls: stackCoreUrls(outputs),
    apiKey: new Secret(outputs.apiKey),
    signerKeyConfigured: outputs.signerKeyConfigured,
    database: outputs.database,
  };
}

/** The project's stack names (`pulumi stack ls --json`), for the terminal app's stack picker. */
export async function listPulumiStacks(options: PulumiCliOptions = {}): Promise<string[] | ConnectionError> {
  const stdout = await runPulumi(['stack', 'ls', '--json'], options, 'listing stacks');
  if (stdout instanceof ConnectionError) return stdout;
  const parsed = StackListSchema.safeParse(parseJson(stdout));
  if (!parsed.success) {
    return new ConnectionError('pulumiFailed', '`pulumi stack ls --json` printed something other than a list of stacks: check the Pulumi CLI version (3.x).');
  }
  return parsed.data.map((stack) => stack.name);
}
