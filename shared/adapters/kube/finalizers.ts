// Removing one finalizer from a Node or NodeClaim by JSON patch, pinned to the resourceVersion it was
// computed from, so a finalizer another controller adds or removes meanwhile is never lost.
import type { ObjectRefInfo } from '../../ports/cluster/errors.ts';
import { withConflictRetry } from './retry.ts';

/** The object's current finalizers and the resourceVersion they were read at. */
export interface FinalizerRead {
  readonly finalizers: readonly string[];
  readonly resourceVersion: string;
}

export type JsonPatchOp =
  | { readonly op: 'replace'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string };

export interface FinalizerTarget {
  readonly ref: ObjectRefInfo;
  read(): Promise<FinalizerRead>;
  patch(ops: JsonPatchOp[]): Promise<unknown>;
}

/**
 * The list is edited by index, so the patch also sets metadata.resourceVersion to the version read: the
 * API server takes it as a precondition and answers 409 Conflict if anything changed since (another
 * controller's finalizer added or removed), and the removal is re-read and retried. (A JSON patch `test`
 * would fail with 422 instead, which says nothing about retrying.) Without the finalizer: nothing to do.
 */
export async function removeFinalizer(
  target: FinalizerTarget,
  finalizer: string,
  attempts: number,
): Promise<void> {
  await withConflictRetry(target.ref, attempts, async () => {
    const { finalizers, resourceVersion } = await target.read();
    const index = finalizers.indexOf(finalizer);
    if (index < 0) return;
    await target.patch([
      { op: 'replace', path: '/metadata/resourceVersion', value: resourceVersion },
      { op: 'remove', path: `/metadata/finalizers/${index}` },
    ]);
  });
}
