import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An organization owns resources and hosted repositories; its API keys authenticate the resource and hosting APIs. */
export const Organization = defineEntity({
  name: 'Organization',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Organization = InferEntity<typeof Organization>;

/** Only the SHA-256 of a key is stored; keys carry 256 random bits, so a fast hash is enough. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(Organization).index(),
    keyHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;
