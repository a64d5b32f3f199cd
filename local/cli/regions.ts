// The regions a snapshot lives in (docs/contract.md, "Regions"): from its Nodes' and NodeClaims' region and
// zone labels, its NodePools' region and zone requirements, and its GCE node classes' subnetworks. `--region`
// replaces them; with none, every region of the catalog is used.
import { regionOfZone } from '../../shared/catalog/regions.ts';
import { REGION, ZONE } from '../../shared/model/labels.ts';
import type { ClusterObjects } from '../../shared/state/objects.ts';

const SUBNETWORK_REGION = /(?:^|\/)regions\/([a-z]+-[a-z]+\d+)\/subnetworks\//;

export function snapshotRegions(objects: ClusterObjects): Set<string> {
  const regions = new Set<string>();
  const fromLabels = (labels: Readonly<Record<string, string>> | undefined): void => {
    const region = labels?.[REGION];
    if (region) regions.add(region);
    const zone = labels?.[ZONE];
    const ofZone = zone ? regionOfZone(zone) : undefined;
    if (ofZone) regions.add(ofZone);
  };
  for (const n of objects.nodes) fromLabels(n.metadata.labels);
  for (const c of objects.nodeClaims) fromLabels(c.metadata.labels);
  for (const p of objects.nodePools)
    for (const r of p.spec.template.spec.requirements ?? []) {
      if (r.operator !== 'In') continue;
      if (r.key === REGION) for (const v of r.values ?? []) regions.add(v);
      if (r.key === ZONE)
        for (const v of r.values ?? []) {
          const ofZone = regionOfZone(v);
          if (ofZone) regions.add(ofZone);
        }
    }
  for (const c of objects.nodeClasses)
    if (c.kind === 'GCENodeClass') {
      const m = SUBNETWORK_REGION.exec(c.spec.subnetwork ?? '');
      if (m?.[1]) regions.add(m[1]);
    }
  return regions;
}
