import pLimit from 'p-limit';

/** Runs tasks at most `maxConcurrent` at a time: our one adapter over `p-limit`. */
export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>;

export function createConcurrencyLimit(maxConcurrent: number): ConcurrencyLimit {
  const limit = pLimit(maxConcurrent);
  return (task) => limit(task);
}
