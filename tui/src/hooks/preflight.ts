import { CoreClient } from 'core-client/http/core-client';
import { resolveConnection } from 'core-client/connection/resolve-connection';
import { runPreflight } from 'core-client/connection/preflight';
import type { ConnectionError } from 'core-client/connection/errors';
import type { Secret } from 'core-client/secret';
import type { ConnectForm, PreflightView, ResolvedCore } from '../screens/walk-state.js';

/**
 * The connection as the headless commands resolve it (flags, then environment, then stack), with the typed
 * key standing in for CORE_API_KEY, then core-client's pre-flight against it.
 */
export async function checkConnection(form: ConnectForm, env: NodeJS.ProcessEnv, pulumiBinary?: string): Promise<PreflightView | ConnectionError | Error> {
  const connectionEnv: NodeJS.ProcessEnv = { ...env };
  delete connectionEnv['CORE_API_KEY'];
  delete connectionEnv['CORE_URL'];
  if (!form.apiKey.isEmpty) connectionEnv['CORE_API_KEY'] = form.apiKey.reveal();
  const resolved = await resolveConnection(
    {
      ...(form.coreUrl.trim() === '' ? {} : { core: form.coreUrl.trim() }),
      ...(form.tenant.trim() === '' ? {} : { tenant: form.tenant.trim() }),
      ...(form.app.trim() === '' ? {} : { app: form.app.trim() }),
      ...(form.stack === '' ? {} : { stack: form.stack }),
    },
    connectionEnv,
    pulumiBinary === undefined ? {} : { pulumiBinary },
  );
  if (resolved instanceof Error) return resolved;
  const core: ResolvedCore = {
    coreUrl: resolved.coreUrl,
    apiKey: resolved.apiKey,
    ...(resolved.tenantId === undefined ? {} : { tenantId: resolved.tenantId }),
    ...(resolved.appId === undefined ? {} : { appId: resolved.appId }),
    ...(resolved.signerKeyConfigured === undefined ? {} : { signerKeyConfigured: resolved.signerKeyConfigured }),
  };
  let client: CoreClient;
  try {
    client = clientFor(core);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  try {
    return { core, report: await runPreflight(client) };
  } finally {
    await client.close();
  }
}

export function clientFor(core: ResolvedCore, connections?: number, signerKey?: Secret): CoreClient {
  return new CoreClient({
    redact: [signerKey],
    baseUrl: core.coreUrl,
    apiKey: core.apiKey,
    ...(core.tenantId === undefined ? {} : { tenantId: core.tenantId }),
    ...(core.appId === undefined ? {} : { appId: core.appId }),
    ...(connections === undefined ? {} : { connections }),
  });
}

export function describeCore(core: ResolvedCore): string {
  const tenant = core.tenantId ?? 'public';
  return `${core.coreUrl} (${core.appId === undefined ? '' : `app ${core.appId}, `}tenant ${tenant})`;
}
