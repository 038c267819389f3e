/** A concurrency limit for the harness's own tests: certify children are heavy on a 2-core machine. */

/** Runs each task given to it with at most `limit` running at a time, the rest in the order they came. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    // A finished task hands its slot straight to the next waiting one.
    if (active < limit) active += 1;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
