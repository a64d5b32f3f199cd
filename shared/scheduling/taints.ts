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
 * Taints a not-yet-initialized node carries only for a while and that pods are expected to outlive: Karpenter
 * ignores startup taints and these well-known ephemeral taints when scheduling onto in-flight capacity.
 */
export const EPHEMERAL_TAINT_KEYS: ReadonlySet<string> = new Set([
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.cloudprovider.kubernetes.io/uninitialized',
  'karpenter.sh/unregistered',
]);

export function isEphemeralTaint(taint: Taint, startupTaints: readonly Taint[]): boolean {
  if (EPHEMERAL_TAINT_KEYS.has(taint.key)) return true;
  return startupTaints.some(
    (s) => s.key === taint.key && s.effect === taint.effect && (s.value ?? '') === (taint.value ?? ''),
  );
}
