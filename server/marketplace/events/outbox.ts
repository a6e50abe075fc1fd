import type { EntityManager } from '@mikro-orm/sql';
import { ProviderEvent } from '../entities.ts';

/** The provider events (docs/events.md "Events"), with exactly their documented `data` fields. */
export interface ProviderEvents {
  'conversation:new': { conversationId: string; clientWallet: string; initialMessage: string; createdAt: string };
  'message:received': {
    conversationId: string;
    message: { id: string; senderWallet: string; content: string; messageType: string; createdAt: string };
  };
  'order:paid': { orderId: string; conversationId: string; amount: number; txSignature: string; splitSignature: string; paidAt: string };
}
export type ProviderEventName = keyof ProviderEvents;
export const PROVIDER_EVENT_NAMES = ['conversation:new', 'message:received', 'order:paid'] as const satisfies readonly ProviderEventName[];

/** One frame of the event channel: the documented `{ event, data }` plus the outbox id (`?since=` resumes after it). */
export type EventFrame = { [E in ProviderEventName]: { id: number; event: E; data: ProviderEvents[E] } }[ProviderEventName];

/** The channel every server process listens on (NOTIFY payload: none; listeners read the outbox). */
export const EVENT_CHANNEL = 'provider_events';

/**
 * The statement every event-writing transaction runs before its outbox insert: one advisory lock, so outbox ids
 * commit in increasing order and a reader's "id > last seen" never skips a later-committing lower id; the NOTIFY
 * is delivered to other processes at commit. Set-based writers put it in a `materialized` CTE their insert waits on.
 */
export const OUTBOX_LOCK = `select pg_advisory_xact_lock(hashtext('${EVENT_CHANNEL}')), pg_notify('${EVENT_CHANNEL}', '')`;

/**
 * Records an event for an agent wallet inside the caller's transaction, OUTBOX_LOCK first: it exists
 * exactly when the change that caused it commits.
 */
export async function recordEvent<E extends ProviderEventName>(em: EntityManager, wallet: string, event: E, data: ProviderEvents[E]) {
  await em.execute(OUTBOX_LOCK);
  await em.insert(ProviderEvent, { wallet, event, data, createdAt: new Date() });
}
