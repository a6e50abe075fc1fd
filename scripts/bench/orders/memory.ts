/** The server process's memory as the orders bench reports it: what stays alive after a full collection. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * process.memoryUsage() after a full garbage collection, so that a difference is what stays alive
 * (`gc` exposed at run time: the npm script starts Node without --expose-gc).
 */
export function settledMemory(): NodeJS.MemoryUsage {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  return process.memoryUsage();
}
