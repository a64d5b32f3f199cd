// A node of the full simulation as the base had it at a queue place (docs/mechanisms/delta-simulation.md), its
// backlog arrivals before then taking their share. The follow's slots (delta-node-slots.ts) hold every node that
// differs from that.
import { addInto, subtract, type MutableResourceList } from '../model/resources.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';

/** A node input with `pods` placed on it: their requests, host ports and attachable volumes taken. */
export function withLoad(e: ExistingNodeInput, pods: readonly PendingPod[]): ExistingNodeInput {
  const requests: MutableResourceList = {};
  const volumeSlots = new Map(e.volumeSlots);
  for (const p of pods) {
    addInto(requests, p.requests);
    for (const d of p.volumeDrivers) {
      const left = volumeSlots.get(d);
      if (left !== undefined) volumeSlots.set(d, left - 1);
    }
  }
  return {
    ...e,
    available: subtract(e.available, requests),
    hostPorts: [...e.hostPorts, ...pods.flatMap((p) => p.hostPorts)],
    volumeSlots,
  };
}
