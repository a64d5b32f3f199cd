// Taints and tolerations (core/v1 semantics as Karpenter's scheduling.Taints applies them).
import type { Taint, Toleration } from '../model/meta.ts';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key === undefined || t.key === '') return t.operator === 'Exists'; // empty key + Exists tolerates all
  if (t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** The first taint the tolerations do not tolerate, or undefined. */
export function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  for (const taint of taints) {
    let ok = false;
    for (const t of tolerations) {
      if (toleratesTaint(t, taint)) {
        ok = true;
        break;
      }
    }
    if (!ok) return taint;
  }
  return undefined;
}

export const describeTaint = (t: Taint): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

/**
 * Taints a managed, not-yet-initialized node carries only for a while and that pods are expected to outlive
 * (Karpenter's KnownEphemeralTaints, matched on key, value and effect, plus the readiness.k8s.io/ family):
 * Karpenter ignores these and the claim's startup taints until the node initializes, and never on other nodes.
 */
const EPHEMERAL_TAINTS: readonly Taint[] = [
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
  { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
  { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
];
const EPHEMERAL_KEY_PREFIXES: readonly string[] = ['readiness.k8s.io/'];

const sameTaint = (a: Taint, b: Taint): boolean =>
  a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '');

export function isEphemeralTaint(taint: Taint, startupTaints: readonly Taint[]): boolean {
  if (EPHEMERAL_TAINTS.some((e) => sameTaint(e, taint))) return true;
  if (EPHEMERAL_KEY_PREFIXES.some((p) => taint.key.startsWith(p))) return true;
  return startupTaints.some((s) => sameTaint(s, taint));
}
