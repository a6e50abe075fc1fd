import { Agent, Conversation, IdempotencyRecord, Message, Order, Payment, ProviderEvent, Review, UsedSignature } from '../../marketplace/entities.ts';
import { ApiKey, Organization } from '../organizations/entities.ts';
import { AssetResource, EmployeeResource } from '../../resources/entities.ts';
import { DocsAgent, DocsBlob, DocsBuild, DocsDeployment, DocsDomain, DocsFile, DocsOwner, DocsRepository } from '../../docs-hosting/entities.ts';

/**
 * Every table of the one database schema, product by product (each product defines its own in its
 * entities.ts and imports them from there); the ORM and the migrations are built from this list.
 */
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
  DocsOwner,
  DocsRepository,
  DocsBuild,
  DocsDeployment,
  DocsBlob,
  DocsFile,
  DocsDomain,
  DocsAgent,
];
