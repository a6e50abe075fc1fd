import { Agent, Conversation, IdempotencyRecord, Message, Order, Payment, ProviderEvent, Review, UsedSignature } from './marketplace.ts';
import { ApiKey, AssetResource, EmployeeResource, Organization } from './resources.ts';

export * from './marketplace.ts';
export * from './resources.ts';

export const entities = [
  Organization,
  ApiKey,
  EmployeeResource,
  AssetResource,
  Agent,
  Conversation,
  Message,
  Order,
  Review,
  UsedSignature,
  Payment,
  ProviderEvent,
  IdempotencyRecord,
];
