// Bounded parallelism for a use case's independent calls (one claim's creation, one launcher's invocation):
// Karpenter creates a batch's NodeClaims in parallel (workqueue.ParallelizeUntil), not one after another.

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the items' order. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    // Once one call failed no new one starts; those in flight finish, then the first error is thrown.
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T, i);
      } catch (error: unknown) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failed.error;
  return out;
}
