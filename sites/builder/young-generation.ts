import { setFlagsFromString } from 'node:v8';

/**
 * Keeps this process's young generation at V8's initial size (a new space of ~2 MB) instead of letting it grow to
 * 128 MB. A build reads and writes every page's HTML (~100-300 kB each at 1,000 pages: the sidebar lists every page)
 * and sends it to Pagefind, and V8 grew its young generation with that: the process held ~300-350 MB for ~50-170 MB
 * live. Kept small: ~170-230 MB, at no measurable cost in time (docs/testing.md). The one flag that can change once
 * V8 runs (`--max-semi-space-size` only counts at start-up); called by the processes that build (`docs build`, a
 * hosted build's process), not by the library: the flag is the whole process's.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
