import { z } from 'zod';

const CoreUrlSchema = z.url({ protocol: /^https?$/ });

/**
 * The outputs of a stack put up by infra/: infra/index.ts exports them (its component's outputs are typed by this
 * schema), and the connection step reads them back from `pulumi stack output --json --show-secrets`.
 * Unknown outputs (coreContainerName, databaseVolume...) are the operator's and are ignored here.
 */
export const StackOutputsSchema = z
  .object({
    /** The first core; what a single-core client connects to. */
    coreUrl: CoreUrlSchema,
    /** One URL per core replica, coreUrl first. Absent on a stack last updated before replicas existed. */
    coreUrls: z.array(CoreUrlSchema).min(1).optional(),
    /** A Pulumi secret on the stack; shown only with --show-secrets. */
    apiKey: z.string().min(1),
    signerKeyConfigured: z.boolean(),
    database: z.enum(['postgresql', 'memory']),
  })
  .refine((outputs) => outputs.coreUrls === undefined || outputs.coreUrls[0] === outputs.coreUrl, {
    path: ['coreUrls'],
    error: 'The first of coreUrls must be coreUrl.',
  });

export type StackOutputs = z.infer<typeof StackOutputsSchema>;
export type StackDatabase = StackOutputs['database'];

/** The cores a stack runs: coreUrls, or coreUrl alone for a stack that predates replicas. */
export function stackCoreUrls(outputs: Pick<StackOutputs, 'coreUrl' | 'coreUrls'>): string[] {
  return outputs.coreUrls ?? [outputs.coreUrl];
}
