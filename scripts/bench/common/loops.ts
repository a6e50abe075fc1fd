/** The load loop every in-process measurement uses: a few operations in flight until time or work runs out. */

export interface LoopRun {
  /** Durations of the operations that succeeded, ms. */
  latencies: number[];
  failed: number;
  firstFailure?: string;
  elapsedSeconds: number;
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs operations from `concurrency` loops for `seconds` (Infinity: no time limit), timing each one.
 * Before each operation `take` answers the index to run next, or undefined to end that loop.
 */
export async function runLoops(
  concurrency: number,
  seconds: number,
  take: (run: LoopRun) => number | undefined,
  operation: (index: number) => Promise<unknown>,
): Promise<LoopRun> {
  const run: LoopRun = { latencies: [], failed: 0, elapsedSeconds: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1_000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const index = take(run);
      if (index === undefined) return;
      const before = performance.now();
      try {
        await operation(index);
        run.latencies.push(performance.now() - before);
      } catch (error) {
        run.failed++;
        run.firstFailure ??= errorMessage(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  run.elapsedSeconds = (performance.now() - started) / 1_000;
  return run;
}
