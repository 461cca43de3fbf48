import { z } from 'zod';
// Types only: config.ts spreads these keys into the one stack config schema, so a value import back would be a cycle.
import { CONFIG_NAMESPACE, setCommand, wholeNumber } from './config-terms.js';
import { formatImageReference, isPinned, parseImageReference } from './image-reference.js';

/** How many login-time services may share one PostgreSQL store; each holds its own small pool of connections. */
export const MAX_LOGIN_SERVICE_REPLICAS = 8;

const NAMESPACE_PATTERN = /^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
const CPU_PATTERN = /^(?:\d+m|\d+(?:\.\d{1,3})?)$/;
const STORAGE_PATTERN = /^\d+(?:Mi|Gi|Ti)$/;

function booleanKey(key: string, fix: string) {
  return z
    .enum(['true', 'false'], { error: `${CONFIG_NAMESPACE}:${key} must be true or false: ${fix}.` })
    .transform((value) => value === 'true')
    .optional();
}

/**
 * The keys only the Kubernetes target reads. None has a default here, so a key set on a Docker stack can be told
 * from one left alone (and refused: an ignored databaseUrl would quietly put the users in a container's database);
 * the defaults are the Kubernetes program's (kubernetes/settings.ts).
 */
export const KUBERNETES_KEYS = {
  kubernetesNamespace: z
    .string()
    .regex(NAMESPACE_PATTERN, {
      error: `${CONFIG_NAMESPACE}:kubernetesNamespace must be a namespace name (lowercase letters, digits and -, at most 63): run \`${setCommand('kubernetesNamespace', 'auth')}\`, or \`pulumi config rm ${CONFIG_NAMESPACE}:kubernetesNamespace\` for the provider's own.`,
    })
    .optional(),
  /** The production database: a PostgreSQL the cluster reaches, by URL (it holds the password, so it is a secret). */
  databaseUrl: z
    .url({
      protocol: /^postgres(?:ql)?$/,
      error: `${CONFIG_NAMESPACE}:databaseUrl must be a postgresql:// URL: run \`${setCommand('databaseUrl', 'postgresql://<user>:<password>@<host>:5432/<database>', true)}\`.`,
    })
    .optional(),
  rehearsal: booleanKey(
    'rehearsal',
    `run \`${setCommand('rehearsal', 'true')}\` for a rehearsal (PostgreSQL in the cluster, tags allowed) or false for production`,
  ),
  coreCpu: z
    .string()
    .regex(CPU_PATTERN, {
      error: `${CONFIG_NAMESPACE}:coreCpu must be a CPU quantity (e.g. 1, 1.5 or 500m): run \`${setCommand('coreCpu', '1')}\`.`,
    })
    .optional(),
  coreMemory: z
    .string()
    .regex(STORAGE_PATTERN, {
      error: `${CONFIG_NAMESPACE}:coreMemory must be a memory quantity in Mi, Gi or Ti: run \`${setCommand('coreMemory', '1Gi')}\`.`,
    })
    .optional(),
  coreSpread: z
    .enum(['preferred', 'required'], {
      error: `${CONFIG_NAMESPACE}:coreSpread must be preferred or required: run \`${setCommand('coreSpread', 'required')}\` to never put two cores on one node while another has fewer.`,
    })
    .optional(),
  postgresStorage: z
    .string()
    .regex(STORAGE_PATTERN, {
      error: `${CONFIG_NAMESPACE}:postgresStorage must be a size in Mi, Gi or Ti: run \`${setCommand('postgresStorage', '10Gi')}\`.`,
    })
    .optional(),
  loginServiceReplicas: wholeNumber(
    1,
    MAX_LOGIN_SERVICE_REPLICAS,
    `${CONFIG_NAMESPACE}:loginServiceReplicas must be a whole number from 1 to ${MAX_LOGIN_SERVICE_REPLICAS}: run \`${setCommand('loginServiceReplicas', '2')}\`.`,
  ).optional(),
};

export type KubernetesKey = keyof typeof KUBERNETES_KEYS;
const KUBERNETES_KEY_NAMES = Object.keys(KUBERNETES_KEYS) as KubernetesKey[];

/**
 * What the target's rules read of a stack's config (config.ts's `StackConfig` holds it all, and imports these rules:
 * named here, so that this file needs nothing above it).
 */
export type TargetRulesInput = Partial<Record<KubernetesKey, unknown>> & {
  target: 'docker' | 'kubernetes';
  database: string;
  databaseUrl?: unknown;
  rehearsal?: boolean | undefined;
  image: string;
  loginService: boolean;
  loginServiceImage?: string | undefined;
  loginServiceReplicas?: number | undefined;
  loginServiceStoreUrl?: unknown;
};

/** Whether the stack is a rehearsal; production unless said otherwise, so the strict rules are the default. */
export function isRehearsal(config: Pick<TargetRulesInput, 'rehearsal'>): boolean {
  return config.rehearsal ?? false;
}

/** The problems of the keys that depend on the target: Kubernetes keys on a Docker stack, and production's rules. */
export function targetProblems(config: TargetRulesInput): string[] {
  if (config.target === 'docker') {
    const set = KUBERNETES_KEY_NAMES.filter((key) => config[key] !== undefined);
    if (set.length === 0) return [];
    return [
      `${CONFIG_NAMESPACE}:${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} read only by target kubernetes, and this stack's target is docker: remove ${set.length === 1 ? 'it' : 'them'} with \`pulumi config rm ${CONFIG_NAMESPACE}:<key>\`, or run \`${setCommand('target', 'kubernetes')}\`.`,
    ];
  }
  const problems: string[] = [];
  if (config.database === 'memory' && config.databaseUrl !== undefined) {
    problems.push(
      `${CONFIG_NAMESPACE}:databaseUrl is set but database is memory: the core would not use it. Run \`${setCommand('database', 'postgresql')}\`, or \`pulumi config rm ${CONFIG_NAMESPACE}:databaseUrl\`.`,
    );
  }
  if (config.loginService && (config.loginServiceReplicas ?? 1) > 1 && config.loginServiceStoreUrl === undefined) {
    problems.push(
      `${CONFIG_NAMESPACE}:loginServiceReplicas is ${config.loginServiceReplicas} but loginServiceStoreUrl is not set: several services must share one waiting store, and a SQLite file has one writer. Run \`${setCommand('loginServiceStoreUrl', 'postgresql://<user>:<password>@<host>/<database>', true)}\`, or \`${setCommand('loginServiceReplicas', '1')}\`.`,
    );
  }
  if (!isRehearsal(config)) problems.push(...productionProblems(config));
  return problems;
}

const rehearsalFix = `or run \`${setCommand('rehearsal', 'true')}\` if this stack is a rehearsal`;

function productionProblems(config: TargetRulesInput): string[] {
  const problems: string[] = [];
  if (config.database === 'memory') {
    problems.push(
      `${CONFIG_NAMESPACE}:database is memory on a production stack: every imported user would be lost when a pod restarts. Run \`${setCommand('database', 'postgresql')}\` with \`${setCommand('databaseUrl', 'postgresql://…', true)}\`, ${rehearsalFix}.`,
    );
  } else if (config.databaseUrl === undefined) {
    problems.push(
      `${CONFIG_NAMESPACE}:databaseUrl is not set on a production stack: production keeps its users in a PostgreSQL run and backed up outside the cluster. Run \`${setCommand('databaseUrl', 'postgresql://<user>:<password>@<host>:5432/<database>', true)}\`, ${rehearsalFix} (then PostgreSQL runs in the cluster).`,
    );
  }
  const unpinned = unpinnedProblem('image', config.image);
  if (unpinned !== undefined) problems.push(unpinned);
  if (config.loginService && config.loginServiceImage !== undefined) {
    const loginService = unpinnedProblem('loginServiceImage', config.loginServiceImage);
    if (loginService !== undefined) problems.push(loginService);
  }
  return problems;
}

/** Every node pulls the image again, at any time: in production a tag (worse, `latest`) could run another image. */
function unpinnedProblem(key: 'image' | 'loginServiceImage', image: string): string | undefined {
  const reference = parseImageReference(image);
  if (typeof reference === 'string' || isPinned(reference)) return undefined;
  const shown = formatImageReference(reference);
  const latest = reference.tag === undefined || reference.tag === 'latest' ? ' (`latest`, said or implied, is whatever was pushed last)' : '';
  return (
    `${CONFIG_NAMESPACE}:${key} ${shown} is not pinned by digest on a production stack${latest}: each node pulls it when a pod lands there, so a moved tag would run another image. ` +
    `Find the digest with \`docker buildx imagetools inspect ${shown}\` and run \`${setCommand(key, `${shown}@sha256:<digest>`)}\`, ${rehearsalFix}.`
  );
}
