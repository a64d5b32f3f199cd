// Writing a NodeClaim as an older, looser CRD admitted it: the object then fails the model's validation
// (docs/mechanisms/identity.md#invalid-objects), which the shipped CRD would have refused.
import { defaultCrds, type KubeObject } from '../../../local/kube-api/index.ts';
import type { E2eHarness } from './harness.ts';

/** A taint value with a space: the model (and our CRD) refuse it; a CRD without the pattern admits it. */
export const BAD_TAINT = { key: 'example.com/team', value: 'a b', effect: 'NoSchedule' };

/** Writes the claim's taints under a CRD that admits any taint value, then restores ours. */
export function writeUnderLooseCrd(h: E2eHarness, claimName: string, taints: object[]): void {
  const ours = defaultCrds().find((c) => c.spec.names.kind === 'NodeClaim');
  if (!ours) throw new Error('no NodeClaim CRD');
  const loose = structuredClone(ours);
  const spec = loose.spec.versions[0]?.schema?.openAPIV3Schema?.properties?.spec?.properties;
  const items = (spec?.taints as { items: { properties: Record<string, object> } }).items;
  items.properties.value = { type: 'string' };
  h.kube.installCrd(loose);
  try {
    const t = h.kube.typeOf('NodeClaim');
    const current: KubeObject = h.kube.store.get(t, undefined, claimName);
    const next = { ...current, spec: { ...(current.spec as object), taints } };
    h.kube.store.update(t, undefined, claimName, next, undefined);
  } finally {
    h.kube.installCrd(ours);
  }
}
