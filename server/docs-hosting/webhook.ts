/**
 * The push webhook protocol (GitHub's format), with no I/O, as server/marketplace/wallet-signature.ts is for
 * wallets: whether a delivery is signed with the repository's secret, and what an event asks the service to do.
 *
 * - Signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, compared in constant time.
 * - `X-GitHub-Event` (default `push`): `push` of a branch or tag publishes that full ref (a tag `v1` even where a
 *   branch `v1` exists), a deleted one is forgotten; `pull_request` opened/synchronize/reopened/edited publishes
 *   `refs/pull/N/head`, closed forgets it, other actions do nothing; `ping` does nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../platform/errors.ts';

/** Whether `header` is the signature of `rawBody` under `secret` (false when there is no secret to check with). */
export function webhookSignatureMatches(secret: string | undefined, rawBody: string, header: string | undefined): boolean {
  if (!secret) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a delivery asks for: publish a ref, forget one that is gone (`sync`: fetch first), or nothing. */
export type WebhookAction = { publish: string } | { forget: string; sync: boolean } | { nothing: true };

/** The action of an event; a malformed or unsupported one is a VALIDATION_ERROR naming what is wrong. */
export function webhookAction(event: string, body: Record<string, unknown>): WebhookAction {
  if (event === 'ping') return { nothing: true };
  if (event === 'pull_request') {
    const number = Number(body.number);
    const action = String(body.action ?? '');
    if (!Number.isInteger(number) || number <= 0) throw new AppError('VALIDATION_ERROR', 'Invalid request', { number: 'Must be the pull request number' });
    const ref = `refs/pull/${number}/head`;
    if (action === 'closed') return { forget: ref, sync: false };
    return ['opened', 'synchronize', 'reopened', 'edited'].includes(action) ? { publish: ref } : { nothing: true };
  }
  if (event !== 'push') throw new AppError('VALIDATION_ERROR', 'Invalid request', { 'X-GitHub-Event': 'Only push, pull_request and ping events are handled' });
  const ref = typeof body.ref === 'string' ? body.ref : '';
  if (!/^refs\/(heads|tags)\/./.test(ref)) throw new AppError('VALIDATION_ERROR', 'Invalid request', { ref: 'Must be a branch or tag ref (refs/heads/..., refs/tags/...)' });
  if (body.deleted === true || /^0{40}$/.test(String(body.after ?? ''))) return { forget: ref, sync: true };
  return { publish: ref };
}
