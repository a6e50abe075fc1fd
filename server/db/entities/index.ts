import { Agent, Conversation, IdempotencyRecord, Message, Order, Payment, ProviderEvent, Review, UsedSignature } from './marketplace.ts';
import { ApiKey, AssetResource, EmployeeResource, Organization } from './resources.ts';
import { DocsAgent, DocsBlob, DocsBuild, DocsDeployment, DocsDomain, DocsFile, DocsRepository } from './docs.ts';

export * from './marketplace.ts';
export * from './resources.ts';
export * from './docs.ts';

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
  DocsRepository,
  DocsBuild,
  DocsDeployment,
  DocsBlob,
  DocsFile,
  DocsDomain,
  DocsAgent,
];
