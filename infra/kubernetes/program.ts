import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { CORE_PORT } from '../config.js';
import type { ProgramConfig } from '../load-config.js';
import { KubernetesAuthCore } from './auth-core.js';
import { KubernetesLoginService } from './login-service.js';
import { KUBERNETES_DEFAULTS } from './settings.js';

/** The Kubernetes target from a validated config: the core, its database for a rehearsal, and the login-time service. */
export function kubernetesProgram(config: ProgramConfig) {
  const namespace = config.kubernetesNamespace;
  const metadata = namespace === undefined ? {} : { namespace };
  const pullSecret =
    config.registryAddress === undefined || config.registryUsername === undefined || config.registryPassword === undefined
      ? undefined
      : registryPullSecret('registry', metadata, config.registryAddress, config.registryUsername, config.registryPassword);
  const imagePullSecrets = pullSecret === undefined ? undefined : [{ name: pullSecret.metadata.name }];

  // What the operator's machine uses: an ingress's URL, or the local end of `kubectl port-forward` on hostPort.
  const coreUrl = (config.coreUrl ?? `http://127.0.0.1:${config.hostPort}`).replace(/\/+$/, '');
  const core = new KubernetesAuthCore('auth-core', {
    image: config.image,
    apiKey: config.apiKey,
    signerKey: config.signerKey,
    database: config.database,
    databaseUrl: config.databaseUrl,
    postgresImage: config.postgresImage,
    postgresStorage: config.postgresStorage ?? KUBERNETES_DEFAULTS.postgresStorage,
    protectDatabase: config.protectDatabase,
    replicas: config.replicas,
    cpu: config.coreCpu ?? KUBERNETES_DEFAULTS.coreCpu,
    memory: config.coreMemory ?? KUBERNETES_DEFAULTS.coreMemory,
    spread: config.coreSpread ?? KUBERNETES_DEFAULTS.coreSpread,
    namespace,
    imagePullSecrets,
    coreUrl,
  });

  const loginService =
    config.loginService && config.loginServiceImage !== undefined && config.loginServiceKey !== undefined
      ? new KubernetesLoginService('login-migration', {
          image: config.loginServiceImage,
          serviceKey: config.loginServiceKey,
          coreApiKey: config.apiKey,
          coreUrl: pulumi.interpolate`http://${core.service.metadata.name}:${CORE_PORT}`,
          replicas: config.loginServiceReplicas ?? KUBERNETES_DEFAULTS.loginServiceReplicas,
          port: config.loginServicePort,
          storeUrl: config.loginServiceStoreUrl,
          verifyWith: config.loginServiceVerifyWith,
          verifyWithSecret: config.loginServiceVerifyWithSecret,
          protectStore: config.protectDatabase,
          namespace,
          imagePullSecrets,
        })
      : undefined;

  const serviceName = core.service.metadata.name;
  return {
    outputs: core.outputs,
    coreServiceName: serviceName,
    coreDeploymentName: core.deployment.metadata.name,
    /** The command that makes the default coreUrl reach the Service from the operator's machine. */
    portForwardCommand: pulumi.interpolate`kubectl port-forward --namespace ${core.service.metadata.namespace} service/${serviceName} ${config.hostPort}:${CORE_PORT}`,
    databaseClaim: core.postgres?.claim.metadata.name,
    loginServiceUrl: loginService?.url,
    loginServiceName: loginService?.service.metadata.name,
    loginStoreClaim: loginService?.storeClaim?.metadata.name,
  };
}

/** A private registry's credentials as the pull secret every pod of the stack names; only image pulls use it. */
function registryPullSecret(name: string, metadata: { namespace?: string }, address: string, username: string, password: pulumi.Output<string>) {
  const dockerConfig = password.apply((secret) =>
    JSON.stringify({ auths: { [address]: { username, password: secret, auth: Buffer.from(`${username}:${secret}`).toString('base64') } } }),
  );
  return new k8s.core.v1.Secret(name, { metadata, type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': pulumi.secret(dockerConfig) } });
}
