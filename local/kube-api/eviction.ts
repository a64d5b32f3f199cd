// The Eviction API (pods/eviction): PDBs are honoured as the API server does — a pod matched by a PDB
// with disruptionsAllowed 0 gets 429; pending or terminal pods ignore PDBs; more than one PDB is a 500;
// the Eviction's deleteOptions apply (a uid precondition that names another pod is 409 Conflict, the
// grace period), and an allowed eviction is a graceful deletion: the pod stays while it terminates.
import type { ResourceType } from './resources.ts';
import { matchesLabelSelector } from './selectors.ts';
import { statusError, successStatus } from './status.ts';
import type { DeleteOptions, KubeObject, Store } from './store.ts';

export function evict(
  store: Store,
  pods: ResourceType,
  pdbs: ResourceType,
  ns: string,
  name: string,
  body: unknown,
): Record<string, unknown> {
  const eviction = (body ?? {}) as { metadata?: { name?: unknown }; deleteOptions?: unknown };
  if (eviction.metadata?.name !== undefined && eviction.metadata.name !== name)
    throw statusError(400, 'BadRequest', `name in URL does not match name in Eviction object`);
  const options: DeleteOptions = deleteOptionsOf(eviction.deleteOptions);
  const pod = store.get(pods, ns, name);
  if (options.uid && options.uid !== pod.metadata.uid)
    throw statusError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on pods "${name}": Precondition failed: UID in precondition: ${options.uid}, UID in object meta: ${String(pod.metadata.uid)}`,
    );
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  const ignoresPdb =
    phase === 'Pending' ||
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    pod.metadata.deletionTimestamp !== undefined;
  if (!ignoresPdb) {
    const labels = (pod.metadata.labels ?? {}) as Record<string, string>;
    const matching = store
      .list(pdbs, ns)
      .items.filter((pdb) =>
        matchesLabelSelector((pdb.spec as { selector?: never } | undefined)?.selector, labels),
      );
    if (matching.length > 1)
      throw statusError(
        500,
        'InternalError',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    const pdb = matching[0];
    if (pdb) blockUnlessAllowed(store, pdbs, pdb);
  }
  store.delete(pods, ns, name, options);
  return successStatus({ name, kind: 'pods' });
}

function blockUnlessAllowed(store: Store, pdbs: ResourceType, pdb: KubeObject): void {
  const status = (pdb.status ?? {}) as {
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
  };
  const allowed = status.disruptionsAllowed ?? 0;
  const pdbName = String(pdb.metadata.name);
  if (allowed <= 0)
    throw statusError(
      429,
      'TooManyRequests',
      "Cannot evict pod as it would violate the pod's disruption budget.",
      {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: `The disruption budget ${pdbName} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
          },
        ],
      },
    );
  // The API server decrements disruptionsAllowed itself so that concurrent evictions cannot overshoot.
  store.update(
    pdbs,
    String(pdb.metadata.namespace),
    pdbName,
    { ...pdb, status: { ...status, disruptionsAllowed: allowed - 1 } },
    'status',
  );
}

/** DeleteOptions as a DELETE body or an Eviction's `deleteOptions` carry them. */
export function deleteOptionsOf(body: unknown): DeleteOptions {
  const o = (body ?? {}) as {
    preconditions?: { uid?: unknown; resourceVersion?: unknown };
    gracePeriodSeconds?: unknown;
  };
  const pre = o.preconditions ?? {};
  const grace = o.gracePeriodSeconds;
  if (grace !== undefined && (!Number.isInteger(grace) || (grace as number) < 0))
    throw statusError(422, 'Invalid', 'gracePeriodSeconds: must be a non-negative integer');
  return {
    ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
    ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
    ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}),
  };
}
