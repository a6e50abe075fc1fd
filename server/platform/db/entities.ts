import { Agent, Conversation, IdempotencyRecord, Message, Order, Payment, ProviderEvent, Review, UsedSignature } from '../../marketplace/entities.ts';
import { ApiKey, AssetResource, EmployeeResource, Organization } from '../../resources/entities.ts';
import { DocsAgent, DocsBlob, DocsBuild, DocsDeployment, DocsDomain, DocsFile, DocsRepository } from '../../docs-hosting/entities.ts';

export * from '../../marketplace/entities.ts';
export * from '../../resources/entities.ts';
export * from '../../docs-hosting/entities.ts';

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
