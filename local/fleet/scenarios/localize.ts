// A generated fleet made ready for this run: every timestamp moved so the generator's "now" is the run's start
// (dates relative to the run: a node made "3 days ago" stays 3 days old whatever the calendar says, so
// `expireAfter: 720h` never expires the whole fleet), and GCENodeClasses pointed at the emulator's image.
import type { KubeObject } from '../../kube-api/index.ts';
import { GCE_IMAGE } from '../clouds.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function shift(value: unknown, deltaMs: number): unknown {
  if (typeof value === 'string' && ISO.test(value))
    return new Date(Date.parse(value) + deltaMs).toISOString().replace('.000Z', 'Z');
  if (Array.isArray(value)) return value.map((v) => shift(v, deltaMs));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shift(v, deltaMs)]));
  return value;
}

export function localize(
  objects: readonly unknown[],
  generatedAt: number,
  runStart: Date,
  project: string,
): KubeObject[] {
  const delta = runStart.getTime() - generatedAt;
  return objects.map((o) => {
    const moved = shift(o, delta) as KubeObject;
    if (moved.kind !== 'GCENodeClass') return moved;
    const spec = (moved as { spec?: Record<string, unknown> }).spec ?? {};
    return { ...moved, spec: { ...spec, imageSelectorTerms: [{ id: GCE_IMAGE(project) }] } } as KubeObject;
  });
}
