import * as pulumi from '@pulumi/pulumi';
import { CONFIG_NAMESPACE, StackConfigError, configWarnings } from './config.js';
import { dockerProgram } from './docker-program.js';
import { kubernetesProgram } from './kubernetes/program.js';
import { loadStackConfig } from './load-config.js';

// Awaited before any resource is declared: a config that cannot work stops here with its sentences.
const config = await loadStackConfig(new pulumi.Config(CONFIG_NAMESPACE));
if (config instanceof StackConfigError) {
  // RunError prints the sentences without a stack trace.
  throw new pulumi.RunError(config.message);
}
for (const warning of configWarnings(config)) void pulumi.log.warn(warning);

const docker = config.target === 'docker' ? dockerProgram(config) : undefined;
const kubernetes = config.target === 'kubernetes' ? kubernetesProgram(config) : undefined;
const outputs = (docker ?? kubernetes)?.outputs;
if (outputs === undefined) throw new Error(`No program for target ${config.target}; this is a bug in infra/.`);

// The outputs core-client's connection step reads (`pulumi stack output --json --show-secrets`), typed by its schema.
export const { coreUrl, coreUrls, apiKey, signerKeyConfigured, database } = outputs;
// Docker, for the operator: `docker logs <name>`, and the volume to remove by hand once it is really to go.
export const coreContainerNames = docker?.coreContainerNames;
export const coreContainerName = docker?.coreContainerName;
export const databaseVolume = docker?.databaseVolume;
// Kubernetes, for the operator: `kubectl logs deployment/<name>`, the port-forward that reaches the Service, the claim.
export const coreServiceName = kubernetes?.coreServiceName;
export const coreDeploymentName = kubernetes?.coreDeploymentName;
export const portForwardCommand = kubernetes?.portForwardCommand;
export const databaseClaim = kubernetes?.databaseClaim;
// Where the backend asks at sign-in (with the service's key), and where the SQLite store is kept.
export const loginServiceUrl = docker?.loginServiceUrl ?? kubernetes?.loginServiceUrl;
export const loginServiceContainerName = docker?.loginServiceContainerName;
export const loginStoreVolume = docker?.loginStoreVolume;
export const loginServiceName = kubernetes?.loginServiceName;
export const loginStoreClaim = kubernetes?.loginStoreClaim;
