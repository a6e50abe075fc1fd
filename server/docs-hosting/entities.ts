import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { SiteManifest } from '../../sites/index.ts';
import { Organization } from '../platform/organizations/entities.ts';

/**
 * Documentation hosting (docs/docs-hosting.md): repositories published from git, their builds (one per commit),
 * what each ref serves, the built files (content-addressed, shared by every server process through the
 * database), custom domains and chat-panel agents.
 */

/** A registered repository: `owner/repo` on this service -> the git repository its sites are built from. */
export const DocsRepository = defineEntity({
  name: 'DocsRepository',
  tableName: 'docs_repository',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().index(),
    owner: p.string().length(64),
    name: p.string().length(100),
    /** `owner/name` lower-cased: URLs match it case-insensitively. */
    slug: p.string().length(165).unique(),
    /** A git URL (https) or, where the operator allows it, a local path. */
    source: p.text(),
    /** The remote's default branch, as of the last sync. */
    defaultBranch: p.string().length(255).nullable(),
    /** HMAC key of the push webhook, encrypted at rest (server/hosting/secrets.ts). */
    webhookSecret: p.text(),
    /** Which refs readers may have built by visiting them (null: the defaults, READER_BUILDS in schemas.ts). */
    readerBuilds: p.json<Partial<Record<'pullRequests' | 'branches' | 'tags' | 'commits', boolean>>>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type DocsRepository = InferEntity<typeof DocsRepository>;

/** What the server knows of a build without reading its files: the renderer's manifest (pages, redirects) and hosting's own. */
export interface BuildManifest extends SiteManifest {
  mcp: { enabled: boolean };
  /** The chat panel: enabled by `agent.key` (only its SHA-256 is kept). */
  agent: { keyHash?: string | undefined; models?: Record<string, string> | undefined; limits: { ip: number; repo: number } };
  /** Blob (sha256) of the MiniSearch index over the pages' Markdown (MCP search, chat retrieval). */
  searchIndex: string;
  /** HTML files this build rendered and took from the repository's build cache (sites/builder/build-cache.ts). */
  htmlFiles?: { rendered: number; cached: number } | undefined;
}

/** A build of one commit; builds are cached by commit: a repository has at most one per commit. */
export const DocsBuild = defineEntity({
  name: 'DocsBuild',
  tableName: 'docs_build',
  uniques: [{ properties: ['repository', 'commit'] }],
  indexes: [{ properties: ['status', 'leaseUntil'] }],
  properties: {
    id: p.uuid().primary(),
    repository: () => p.manyToOne(DocsRepository).mapToPk().deleteRule('cascade'),
    commit: p.string().length(40),
    /** QUEUED -> BUILDING -> SUCCEEDED | FAILED; a BUILDING build whose lease ran out is claimed again. */
    status: p.string().length(16),
    /** Full ref names this build was requested for (`refs/heads/main`); they serve it once it succeeds. */
    refs: p.json<string[]>(),
    /** The validation report: every problem with file, line, column and path. */
    problems: p.json<Record<string, unknown>[]>().nullable(),
    error: p.text().nullable(),
    pages: p.integer().nullable(),
    manifest: p.json<BuildManifest>().nullable(),
    /** Where a running build is: `{ phase, done?, total? }`. */
    progress: p.json<Record<string, unknown>>().nullable(),
    attempts: p.integer().default(0),
    leaseUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type DocsBuild = InferEntity<typeof DocsBuild>;

/** What a ref serves: the build of the newest commit wanted for it that succeeded (a failed build changes nothing). */
export const DocsDeployment = defineEntity({
  name: 'DocsDeployment',
  tableName: 'docs_deployment',
  properties: {
    repository: () => p.manyToOne(DocsRepository).mapToPk().primary().deleteRule('cascade'),
    /** Full ref name: `refs/heads/main`, `refs/tags/v1.0`, `refs/pull/7/head`. */
    ref: p.string().length(255).primary(),
    /** The newest commit published for this ref. */
    wantedCommit: p.string().length(40),
    /** The build served (null until one of this ref succeeds). */
    build: () => p.manyToOne(DocsBuild).mapToPk().nullable().deleteRule('set null'),
    updatedAt: p.datetime(),
  },
});
export type DocsDeployment = InferEntity<typeof DocsDeployment>;

/** File contents by SHA-256: builds of one repository share most of their files. */
export const DocsBlob = defineEntity({
  name: 'DocsBlob',
  tableName: 'docs_blob',
  properties: {
    hash: p.string().length(64).primary(),
    data: p.blob(),
    size: p.integer(),
  },
});
export type DocsBlob = InferEntity<typeof DocsBlob>;

/** A file of a build at its path in the site (`guides/start/index.html`, `_astro/site.css`). */
export const DocsFile = defineEntity({
  name: 'DocsFile',
  tableName: 'docs_file',
  properties: {
    build: () => p.manyToOne(DocsBuild).mapToPk().primary().deleteRule('cascade'),
    path: p.string().length(1024).primary(),
    blob: p.string().length(64).index(),
    size: p.integer(),
  },
});
export type DocsFile = InferEntity<typeof DocsFile>;

/**
 * An owner name (`acme` of `acme/widgets`, lower-cased) belongs to the organization that registered it first: every
 * `acme/...` repository, and the vanity origin `acme.<DOCS_DOMAIN>`, is that organization's.
 */
export const DocsOwner = defineEntity({
  name: 'DocsOwner',
  tableName: 'docs_owner',
  properties: {
    name: p.string().length(64).primary(),
    organization: () => p.manyToOne(Organization).mapToPk().index(),
    createdAt: p.datetime(),
  },
});
export type DocsOwner = InferEntity<typeof DocsOwner>;

/**
 * A custom domain serving a repository's sites at its root, once proven: a DNS TXT record
 * `_docs-challenge.<hostname>` must hold `docs-verification=<token>` (server/docs-hosting/domain-check.ts).
 */
export const DocsDomain = defineEntity({
  name: 'DocsDomain',
  tableName: 'docs_domain',
  properties: {
    hostname: p.string().length(253).primary(),
    repository: () => p.manyToOne(DocsRepository).mapToPk().index().deleteRule('cascade'),
    /** The challenge's random part (not a secret: it is published in DNS). */
    token: p.string().length(64),
    /** Since when the record has been seen; null: not (or no longer) proven, not served. */
    verifiedAt: p.datetime().nullable(),
    /** The last time the record was looked up (an answer, not a DNS failure). */
    checkedAt: p.datetime().nullable(),
    /**
     * When a proven domain's record went (an answer without it); null while proven or never proven. An unproven
     * mapping holds its name against other organizations for a while from this, or from `createdAt` (domains.ts).
     */
    unprovenSince: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type DocsDomain = InferEntity<typeof DocsDomain>;

/** A chat-panel agent (`docs agent create`): the credential's SHA-256 and the provider key, encrypted. */
export const DocsAgent = defineEntity({
  name: 'DocsAgent',
  tableName: 'docs_agent',
  properties: {
    id: p.uuid().primary(),
    repository: () => p.manyToOne(DocsRepository).mapToPk().index().deleteRule('cascade'),
    keyHash: p.string().length(64).unique(),
    provider: p.string().length(16),
    /** The provider's API key, encrypted at rest. */
    providerKey: p.text(),
    model: p.string().length(200).nullable(),
    createdAt: p.datetime(),
  },
});
export type DocsAgent = InferEntity<typeof DocsAgent>;
