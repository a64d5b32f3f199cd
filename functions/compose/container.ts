// Dependencies built once per Lambda container: the first invocation builds them, later ones reuse them; a
// failed build is forgotten so that the next invocation tries again instead of failing for ever.
export function oncePerContainer<T>(build: () => Promise<T> | T): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= Promise.resolve()
      .then(build)
      .catch((err: unknown) => {
        pending = undefined;
        throw err;
      });
    return pending;
  };
}
