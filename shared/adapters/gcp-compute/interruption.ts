// Compute Engine preemption and host-maintenance terminations, read as zonal operations
// (operationType compute.instances.preempted / terminateOnHostMaintenance), validated with zod and
// translated into InterruptionSignals. Pure; the provider lists the operations.
import { z } from 'zod';
import type { InterruptionSignal } from '../../ports/cloud-provider/index.ts';

export const PREEMPTION_FILTER = 'operationType="compute.instances.preempted"';
export const HOST_MAINTENANCE_FILTER = 'operationType="compute.instances.terminateOnHostMaintenance"';

export const gceTerminationOperationSchema = z.looseObject({
  operationType: z.enum(['compute.instances.preempted', 'compute.instances.terminateOnHostMaintenance']),
  targetLink: z.string().regex(/\/zones\/[^/]+\/instances\/[^/]+$/, 'must be an instance URL'),
  insertTime: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'invalid timestamp'),
  status: z.string().optional(),
});
export type GceTerminationOperation = z.infer<typeof gceTerminationOperationSchema>;

/** Operations that are not preemptions (or are malformed) are skipped; the count of skipped ones is returned. */
export function gceInterruptionSignals(
  operations: readonly unknown[],
  since: Date,
): { signals: InterruptionSignal[]; skipped: number } {
  const signals: InterruptionSignal[] = [];
  let skipped = 0;
  for (const raw of operations) {
    const parsed = gceTerminationOperationSchema.safeParse(raw);
    if (!parsed.success) {
      skipped += 1;
      continue;
    }
    const at = new Date(parsed.data.insertTime);
    if (at < since) continue;
    const [, zone = '', name = ''] =
      /\/zones\/([^/]+)\/instances\/([^/]+)$/.exec(parsed.data.targetLink) ?? [];
    signals.push({
      cloud: 'gcp',
      instance: name,
      zone,
      cause:
        parsed.data.operationType === 'compute.instances.preempted' ? 'preempted' : 'scheduled-maintenance',
      drain: true,
      at,
    });
  }
  return { signals, skipped };
}
