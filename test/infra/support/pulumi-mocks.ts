import * as pulumi from '@pulumi/pulumi';

/** One resource as the engine would receive it: its inputs, which of them travel as secrets, and its options. */
export interface RegisteredResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  /** Input properties that were serialised as Pulumi secrets (so they are encrypted in state). */
  secretInputs: string[];
  /** Every string anywhere in the inputs that is not inside a Pulumi secret: what state would hold in plain text. */
  plainText: string[];
  additionalSecretOutputs: string[];
  /** The resource options the engine acts on, as the request carries them. */
  options: {
    deleteBeforeReplace: boolean;
    protect: boolean | undefined;
    retainOnDelete: boolean | undefined;
    /** `urn::id` of an explicit provider; empty for the default one. */
    provider: string;
    /** URNs this resource waits for (dependsOn and the resources its inputs come from). */
    dependencies: string[];
  };
}

/** The parts of the engine's RegisterResourceRequest that these tests read. */
interface RegisterResourceRequest {
  getType(): string;
  getName(): string;
  getAdditionalsecretoutputsList(): string[];
  getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
  getDeletebeforereplace(): boolean;
  getProtect(): boolean | undefined;
  getRetainondelete(): boolean | undefined;
  getProvider(): string;
  getDependenciesList(): string[];
}

interface MockMonitorLike {
  registerResource(request: RegisterResourceRequest, callback: (error: unknown, response: unknown) => void): Promise<void>;
}

export const MOCK_IMAGE_ID_PREFIX = 'sha256:mock-image-of-';
export const MOCK_PASSWORD = 'MockGeneratedPassword0123456789ab';

/** What each mocked provider answers: the inputs back, plus the computed outputs the program reads. */
function mockedState(type: string, name: string, inputs: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'docker:index/remoteImage:RemoteImage':
      return { ...inputs, imageId: `${MOCK_IMAGE_ID_PREFIX}${String(inputs['name'])}` };
    case 'random:index/randomPassword:RandomPassword':
      return { ...inputs, result: MOCK_PASSWORD };
    case 'docker:index/network:Network':
    case 'docker:index/volume:Volume':
    case 'docker:index/container:Container':
      return { name: `${name}-mock`, ...inputs };
    default:
      return type.startsWith('kubernetes:') ? kubernetesState(name, inputs) : inputs;
  }
}

/** As the Kubernetes provider answers: an object it auto-names gets a name, and one without a namespace the provider's. */
function kubernetesState(name: string, inputs: Record<string, unknown>): Record<string, unknown> {
  const metadata = isRecord(inputs['metadata']) ? inputs['metadata'] : {};
  return { ...inputs, metadata: { name: `${name}-mock`, namespace: 'default', ...metadata } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Installs Pulumi mocks and records every registration. The mocks API does not show resource options,
 * so the mock monitor's registerResource is wrapped to read the options (additionalSecretOutputs,
 * deleteBeforeReplace, protect, retainOnDelete, provider, dependencies) and secret inputs from the request
 * itself, exactly what the engine would act on and store.
 */
export async function installMocks(
  config: Record<string, string>,
  secretKeys: string[],
  /** `pulumi preview`: the engine's dry run, where the program must not wait on values only an update knows. */
  preview = false,
): Promise<{
  resources: RegisteredResource[];
  settled: () => Promise<void>;
}> {
  await pulumi.runtime.setMocks(
    {
      newResource: ({ type, name, inputs }) => ({
        id: `${name}-id`,
        state: mockedState(type, name, inputs as Record<string, unknown>),
      }),
      call: ({ inputs }) => inputs as Record<string, unknown>,
    },
    'core-migrate',
    'test',
    preview,
  );
  pulumi.runtime.setAllConfig(config, secretKeys);

  const resources: RegisteredResource[] = [];
  let pending = 0;
  let registrations = 0;
  const monitor = pulumi.runtime.getMonitor() as unknown as MockMonitorLike;
  const registerResource = monitor.registerResource.bind(monitor);
  monitor.registerResource = async (request, callback) => {
    pending += 1;
    registrations += 1;
    const raw = request.getObject()?.toJavaScript() ?? {};
    resources.push({
      type: request.getType(),
      name: request.getName(),
      inputs: Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, pulumi.runtime.unwrapRpcSecret(value)])),
      secretInputs: Object.entries(raw)
        .filter(([, value]) => pulumi.runtime.isRpcSecret(value))
        .map(([key]) => key),
      plainText: plainStrings(raw),
      additionalSecretOutputs: request.getAdditionalsecretoutputsList(),
      options: {
        deleteBeforeReplace: request.getDeletebeforereplace(),
        protect: request.getProtect(),
        retainOnDelete: request.getRetainondelete(),
        provider: request.getProvider(),
        dependencies: request.getDependenciesList(),
      },
    });
    try {
      await registerResource(request, callback);
    } finally {
      pending -= 1;
    }
  };

  /** Resolves once registrations have stopped: none in flight and none new over many turns of the event loop. */
  async function settled(): Promise<void> {
    let quietTurns = 0;
    let seen = registrations;
    while (quietTurns < 50) {
      await new Promise((resolve) => setImmediate(resolve));
      if (pending === 0 && seen === registrations) quietTurns += 1;
      else quietTurns = 0;
      seen = registrations;
    }
  }

  return { resources, settled };
}

/** The strings of a serialised value, walking objects and arrays to the leaves and skipping what travels as a secret. */
function plainStrings(value: unknown): string[] {
  if (pulumi.runtime.isRpcSecret(value)) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(plainStrings);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, entry]) => [key, ...plainStrings(entry)]);
  return [];
}

export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

export function byType(resources: RegisteredResource[], type: string): RegisteredResource[] {
  return resources.filter((resource) => resource.type === type);
}

/** The name the mocked Kubernetes provider gave the one resource of this type and Pulumi name. */
export function nameOfType(resources: RegisteredResource[], type: string, name: string): string {
  return `${onlyOne(byType(resources, type), name).name}-mock`;
}

export function onlyOne(resources: RegisteredResource[], name: string): RegisteredResource {
  const matches = resources.filter((resource) => resource.name === name);
  if (matches.length !== 1) throw new Error(`expected one resource named ${name}, found ${matches.length}`);
  return matches[0] as RegisteredResource;
}
