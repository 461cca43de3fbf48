import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);

/** What a failed command printed, as execFile's error carries it. */
const Printed = z.object({ stdout: z.string().optional(), stderr: z.string().optional() });

/** What a docker command printed. */
export interface DockerRun {
  stdout: string;
  stderr: string;
}

/**
 * Runs the docker client against the suite's own engine (`host`, a unix socket URL), never the machine's default one.
 * Secrets reach a container as `-e NAME` with the value in `env` (the client's environment), never on a command line,
 * which `ps` would show.
 */
export async function docker(host: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<DockerRun> {
  try {
    return await run('docker', args, {
      env: {
        ...process.env,
        ...options.env,
        DOCKER_HOST: host,
        // The classic builder: it is in every docker client, where BuildKit needs the client's buildx plugin.
        DOCKER_BUILDKIT: '0',
      },
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      maxBuffer: 1 << 26,
    });
  } catch (error) {
    const printed = Printed.safeParse(error);
    const said = printed.success ? `${printed.data.stdout ?? ''}\n${printed.data.stderr ?? ''}` : String(error);
    throw new Error(`docker ${args.join(' ')} failed:\n${said}`, { cause: error });
  }
}
