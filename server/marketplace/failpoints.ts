/**
 * Crash tests: `TP_FAILPOINT=<name>` kills the process (SIGKILL, no clean-up, like a power cut) when
 * settlement reaches that point, so tests can prove start-up reconciliation finishes the job. Unset in
 * normal runs, where this is one comparison.
 */
export type FailPoint = 'payment-recorded' | 'payment-submitted' | 'payment-confirmed' | 'split-recorded' | 'split-submitted';

const armed = process.env.TP_FAILPOINT;

export function failpoint(name: FailPoint): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
