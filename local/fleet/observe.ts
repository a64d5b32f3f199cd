// Samples the fleet from the Kubernetes emulator's store: nodes per cloud and NodePool, pending pods, the
// cost of the running nodes at the catalog's prices, and the LP lower bound of the bound pods — the same
// pool-aware bound the summary ends on (report/fleet-bound.ts lpBound), so the chart line meets that figure.
import type { KubeApiEmulator, KubeObject } from '../kube-api/index.ts';
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import { addInto, fromQuantities, type MutableResourceList } from '../../shared/model/resources.ts';
import { emulatorObjects, FLOOR_MAX_PODS, lpBound } from './report/fleet-bound.ts';
import { GPU_MODEL_LABEL, lowerBoundPerHour, modelRow } from './report/lower-bound.ts';

type OwnerRef = { readonly kind?: string };
const isDaemonSet = (o: OwnerRef): boolean => o.kind === 'DaemonSet';

export interface FleetObservation {
  readonly nodesByCloud: Record<string, number>;
  readonly nodesByPool: Record<string, number>;
  readonly pending: number;
  readonly bound: number;
  readonly costPerHour: number;
  readonly lowerBoundPerHour: number;
}

const labels = (o: KubeObject): Record<string, string> => (o.metadata.labels ?? {}) as Record<string, string>;
type PodShape = {
  spec?: {
    nodeName?: string;
    nodeSelector?: Record<string, string>;
    containers?: { resources?: { requests?: Record<string, string> } }[];
  };
};
const GPU = 'nvidia.com/gpu';

function priceOf(node: KubeObject, catalog: InstanceTypeCatalog): { cloud: string; price: number } {
  const l = labels(node);
  const type = catalog.instanceTypes.find((t) => t.name === l['node.kubernetes.io/instance-type']);
  if (!type) return { cloud: 'unknown', price: 0 };
  const zone = l['topology.kubernetes.io/zone'];
  const capacityType = l['karpenter.sh/capacity-type'];
  const offer =
    type.offerings.find((o) => o.zone === zone && o.capacityType === capacityType) ?? type.offerings[0];
  return { cloud: type.cloud, price: offer?.price ?? 0 };
}

const phase = (p: KubeObject): string | undefined => (p.status as { phase?: string } | undefined)?.phase;

/**
 * The divisible bound (lower-bound.ts lowerBoundPerHour over the summed requests, GPU models kept): only above
 * FLOOR_MAX_PODS running pods, where the pool-aware LP is not computed — the summary keeps this one there too.
 */
function divisibleBound(pods: readonly KubeObject[], catalog: InstanceTypeCatalog): number {
  const demand: MutableResourceList = {};
  for (const p of pods) {
    const spec = (p as PodShape).spec;
    const asked: MutableResourceList = {};
    for (const c of spec?.containers ?? []) addInto(asked, fromQuantities(c.resources?.requests));
    addInto(demand, asked);
    const model = spec?.nodeSelector?.[GPU_MODEL_LABEL];
    if (model && asked[GPU]) addInto(demand, { [modelRow(GPU, model)]: asked[GPU] });
  }
  return lowerBoundPerHour(demand, catalog).perHour;
}

export function observe(emulator: KubeApiEmulator, catalog: InstanceTypeCatalog): FleetObservation {
  const nodesByCloud: Record<string, number> = { aws: 0, gcp: 0 };
  const nodesByPool: Record<string, number> = {};
  let costPerHour = 0;
  for (const n of emulator.store.all(emulator.typeOf('Node'))) {
    const { cloud, price } = priceOf(n, catalog);
    nodesByCloud[cloud] = (nodesByCloud[cloud] ?? 0) + 1;
    const pool = labels(n)['karpenter.sh/nodepool'] ?? 'unmanaged';
    nodesByPool[pool] = (nodesByPool[pool] ?? 0) + 1;
    costPerHour += price;
  }
  const running: KubeObject[] = [];
  let pending = 0;
  for (const p of emulator.store.all(emulator.typeOf('Pod'))) {
    if (['Succeeded', 'Failed'].includes(phase(p) ?? '') || p.metadata.deletionTimestamp) continue;
    if ((p as PodShape).spec?.nodeName) running.push(p);
    else pending++;
  }
  // Above FLOOR_MAX_PODS lpBound answers undefined: skip reading every object of the store to learn that (the
  // full ramp's 28,000 pods, every minute). Its count leaves DaemonSet pods out, as lpBound's does.
  const counted = running.filter(
    (p) => !(p.metadata.ownerReferences as OwnerRef[] | undefined)?.some(isDaemonSet),
  );
  const lb =
    (running.length === 0
      ? 0
      : counted.length > FLOOR_MAX_PODS
        ? undefined
        : lpBound(emulatorObjects(emulator), catalog)?.lpPerHour) ?? divisibleBound(running, catalog);
  return { nodesByCloud, nodesByPool, pending, bound: running.length, costPerHour, lowerBoundPerHour: lb };
}
