// Instance types per node class, read from each cloud's provider and reused for a while: DescribeInstanceTypes
// and the price books do not change between batches, and a watch loop runs a batch every few seconds.
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { Cloud } from '../model/labels.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { Clock } from '../ports/clock.ts';

export interface InstanceTypeSource {
  instanceTypes(nodeClass: NodeClass): Promise<readonly InstanceTypeSpec[]>;
}
export type InstanceTypeSources = Readonly<Partial<Record<Cloud, InstanceTypeSource>>>;

export class InstanceTypeCache {
  private readonly entries = new Map<string, { at: number; specs: readonly InstanceTypeSpec[] }>();
  constructor(
    private readonly sources: InstanceTypeSources,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** Undefined when this function has no provider for the node class's cloud. */
  async get(cloud: Cloud, nodeClass: NodeClass): Promise<readonly InstanceTypeSpec[] | undefined> {
    const source = this.sources[cloud];
    if (!source) return undefined;
    // A changed node class (new generation or resourceVersion) is read afresh.
    const m = nodeClass.metadata;
    const key = `${nodeClass.kind}/${m.name}/${m.resourceVersion ?? ''}/${m.generation ?? ''}`;
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.specs;
    const specs = await source.instanceTypes(nodeClass);
    this.entries.set(key, { at: now, specs });
    return specs;
  }
}
