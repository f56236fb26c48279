// The SQLite engine's tables work synchronously; the store's interface is asynchronous so that a server engine
// can sit behind it (store-interface.ts). promised() gives the named methods of a table that interface: each
// runs at once and resolves with its result, and what it throws becomes the promise's rejection.

type Promised<T, K extends keyof T> = {
  [Name in K]: T[Name] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

export function promised<T extends object, K extends keyof T>(target: T, names: readonly K[]): Promised<T, K> {
  const methods: Partial<Record<K, unknown>> = {};
  for (const name of names) {
    const method = target[name] as (...args: unknown[]) => unknown;
    methods[name] = async (...args: unknown[]) => method.apply(target, args);
  }
  return methods as Promised<T, K>;
}
