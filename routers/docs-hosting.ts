import { z } from 'zod';
import {
  AgentCreate,
  AgentOut,
  BuildList,
  BuildListInput,
  BuildOut,
  DomainCreate,
  DomainOut,
  DomainRef,
  PublishInput,
  RepositoryCreate,
  RepositoryCreated,
  RepositoryOut,
  REPOSITORY_PATH,
  RepositoryRef,
  RepositoryUpdate,
  WEBHOOK_PATH,
  WebhookInput,
  WebhookOut,
} from '../server/docs-hosting/schemas.ts';
import { docsExamples as examples, pushDelivery } from './examples/docs-hosting.ts';
import { orgProcedure, publicProcedure } from './procedures.ts';
import { type Meta, router } from './trpc.ts';

/** Organization calls of documentation hosting (docs/docs-hosting.md): an API key, `{ error, message, details }` errors. */
const docsProcedure = orgProcedure.meta({ api: 'docs' });
const tags = ['Documentation hosting'];
/** A call on one of the organization's repositories: registered by another organization, or not at all. */
const repositoryErrors = { 404: ['NOT_FOUND'] } as const;
const noRepository = { NOT_FOUND: 'The organization has registered no such repository (`details.reason`: `repository`)' };
/** Publishing fetches the repository and resolves the ref (publish and the webhook). */
const publishErrors = { 404: ['NOT_FOUND'], 422: ['VALIDATION_ERROR'], 503: ['SERVICE_UNAVAILABLE'] } as const;
const publishNotes = {
  NOT_FOUND: 'No such branch, tag, pull request or commit in the repository (`details.reason`: `ref`)',
  VALIDATION_ERROR: 'The repository is larger than this server builds (`details.reason`: `size`)',
  SERVICE_UNAVAILABLE: 'The git repository could not be fetched (`details.reason`: `git`)',
};
const noDomain = { NOT_FOUND: 'The organization has mapped no such domain (`details.reason`: `domain`)' };

/**
 * The webhook's body, signature and event as GitHub sends them (server/docs-hosting/webhook.ts). Its input schema holds
 * only the path: the body is read raw (the signature covers its bytes) and only a few of its fields are used.
 */
const webhookDoc: Pick<Meta, 'security' | 'parameters' | 'requestBody'> = {
  security: {
    WebhookSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Hub-Signature-256',
      description:
        '`sha256=` and the lower-case hex HMAC-SHA256 of the body bytes exactly as sent, keyed with the webhook secret answered when the ' +
        'repository was registered (`webhookSecret`): what GitHub sends when the webhook has that secret. Checked in constant time.',
    },
  },
  parameters: {
    HubSignature: {
      in: 'header',
      name: 'X-Hub-Signature-256',
      required: true,
      description: 'The delivery\'s signature (security scheme `WebhookSignature`)',
      schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
      example: 'sha256=4b2c9a3f1e7d5c8b0a6f2e4d1c3b5a7f9e8d6c4b2a0f1e3d5c7b9a8f6e4d2c0b',
    },
    GitHubEvent: {
      in: 'header',
      name: 'X-GitHub-Event',
      required: false,
      description:
        '`push` (the default) publishes the pushed branch or tag and forgets a deleted one; `pull_request` publishes `refs/pull/N/head` ' +
        '(opened, synchronize, reopened, edited) or forgets it (closed); `ping` does nothing. Any other event: 422.',
      schema: { type: 'string', default: 'push' },
      example: 'push',
    },
  },
  requestBody: {
    required: true,
    description:
      'The event as the code host sent it (GitHub\'s payload of the X-GitHub-Event), read raw: the signature covers these exact bytes. ' +
      'A push uses `ref`, `after` and `deleted`, a pull_request `number` and `action`; every other field is accepted and ignored.',
    content: {
      'application/json': {
        schema: {
          // The event's payload: which one is the X-GitHub-Event header's (push without one).
          anyOf: [
            {
              title: 'Push',
              type: 'object',
              required: ['ref'],
              properties: {
                ref: { type: 'string', pattern: '^refs/(heads|tags)/.+', description: 'The full ref pushed', example: 'refs/heads/main' },
                after: { type: 'string', pattern: '^[0-9a-f]{40}$', description: 'The commit the ref points at now (40 zeros: deleted)' },
                deleted: { type: 'boolean', description: 'Whether the ref was deleted' },
              },
              additionalProperties: true,
            },
            {
              title: 'PullRequest',
              type: 'object',
              required: ['number', 'action'],
              properties: {
                number: { type: 'integer', minimum: 1, description: 'The pull request' },
                action: { type: 'string', description: 'opened, synchronize, reopened and edited publish it, closed forgets it; others do nothing' },
              },
              additionalProperties: true,
            },
            {
              title: 'Ping',
              type: 'object',
              required: ['zen', 'hook_id'],
              properties: { zen: { type: 'string' }, hook_id: { type: 'integer' } },
              additionalProperties: true,
            },
          ],
        },
        example: pushDelivery,
      },
    },
  },
};

export const docsRouter = router({
  repositories: router({
    create: docsProcedure
      .meta({
        successStatus: 201,
        errors: { 409: ['CONFLICT'], 422: ['VALIDATION_ERROR'] },
        errorNotes: {
          CONFLICT: 'owner/repo is already registered, or the owner name belongs to another organization (`details.reason`: `duplicate`, `owner`)',
          VALIDATION_ERROR: 'The source is not a git repository this server may and can read, or is too large (`details.source`)',
        },
        examples: examples.repositoriesCreate,
        openapi: {
          method: 'POST',
          path: '/api/docs/repositories',
          tags,
          summary: 'Register a repository: owner/repo -> a git URL',
          description:
            'Registers the git repository whose sites are served under /{owner}/{repo}, after checking that the server can read it. Answers the ' +
            'webhook URL and secret for the code host (the secret only now). The owner name is the organization\'s from its first repository on.',
          protect: true,
        },
      })
      .input(RepositoryCreate)
      .output(RepositoryCreated)
      .mutation(({ ctx, input }) => ctx.services.docs.repositories.register(ctx.orgId, input)),

    get: docsProcedure
      .meta({
        errors: repositoryErrors,
        errorNotes: noRepository,
        examples: examples.repositoriesGet,
        openapi: {
          method: 'GET',
          path: REPOSITORY_PATH,
          tags,
          summary: 'A repository: what each ref serves, its domains',
          description: 'The repository with each published ref (the commit it wants, the commit it serves, where) and its custom domains.',
          protect: true,
        },
      })
      .input(RepositoryRef)
      .output(RepositoryOut)
      .query(({ ctx, input }) => ctx.services.docs.repositories.get(ctx.orgId, input.owner, input.repo)),

    update: docsProcedure
      .meta({
        errors: repositoryErrors,
        errorNotes: noRepository,
        examples: examples.repositoriesUpdate,
        openapi: {
          method: 'PATCH',
          path: REPOSITORY_PATH,
          tags,
          summary: 'Change which unpublished refs readers may have built',
          description: 'Changes the `readerBuilds` keys sent and keeps the others; an empty body changes nothing. Answers the repository.',
          protect: true,
        },
      })
      .input(RepositoryUpdate)
      .output(RepositoryOut)
      .mutation(({ ctx, input }) => ctx.services.docs.repositories.update(ctx.orgId, input.owner, input.repo, input.readerBuilds)),

    publish: docsProcedure
      .meta({
        errors: publishErrors,
        examples: examples.repositoriesPublish,
        errorNotes: {
          ...publishNotes,
          NOT_FOUND: 'No such repository of the organization, or no such branch, tag, pull request or commit in it (`details.reason`: `repository`, `ref`)',
        },
        openapi: {
          method: 'POST',
          path: `${REPOSITORY_PATH}/publish`,
          tags,
          summary: 'Publish a ref: fetch the repository and build its commit',
          description:
            'Fetches the repository and queues the build of the ref\'s commit (the default branch without a body). Answers the build (reused ' +
            'when the commit was built before). The ref keeps serving its last good build until this one succeeds.',
          protect: true,
        },
      })
      .input(PublishInput)
      .output(BuildOut)
      .mutation(({ ctx, input }) => ctx.services.docs.publishing.publish(ctx.orgId, input.owner, input.repo, input.ref)),

    builds: docsProcedure
      .meta({
        errors: repositoryErrors,
        errorNotes: noRepository,
        examples: examples.repositoriesBuilds,
        openapi: {
          method: 'GET',
          path: `${REPOSITORY_PATH}/builds`,
          tags,
          summary: 'Builds of a repository, newest first',
          description: 'Every build of the repository, newest first, a page at a time (`total` counts them all), with its status and validation report.',
          protect: true,
        },
      })
      .input(BuildListInput)
      .output(BuildList)
      .query(({ ctx, input: { owner, repo, ...page } }) => ctx.services.docs.publishing.builds(ctx.orgId, owner, repo, page)),

    webhook: publicProcedure
      .meta({
        api: 'docs',
        ...webhookDoc,
        examples: examples.repositoriesWebhook,
        errors: { ...publishErrors, 401: ['UNAUTHORIZED'] },
        errorNotes: {
          ...publishNotes,
          UNAUTHORIZED: 'X-Hub-Signature-256 is missing or does not match the body under the repository secret (also for an unknown repository)',
          VALIDATION_ERROR:
            'An event other than push, pull_request and ping, a push of a ref that is no branch or tag, a pull_request without its number; ' +
            'or the repository is larger than this server builds (`details.reason`: `size`)',
        },
        openapi: {
          method: 'POST',
          path: WEBHOOK_PATH,
          tags,
          summary: 'Push webhook (GitHub format)',
          description:
            'Where the code host posts events (GitHub\'s format, `application/json`): signed with the repository webhook secret ' +
            '(`X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`). `X-GitHub-Event`: `push` publishes the pushed branch or tag, ' +
            '`pull_request` the pull request, `ping` nothing. Answers the event and the builds it queued.',
          protect: false,
        },
      })
      .input(WebhookInput)
      .output(WebhookOut)
      .mutation(({ ctx, input: { owner, repo, ...body } }) =>
        ctx.services.docs.publishing.webhook(owner, repo, {
          event: ctx.headers['x-github-event'] as string | undefined,
          signature: ctx.headers['x-hub-signature-256'] as string | undefined,
          rawBody: ctx.rawBody ?? '',
          body,
        }),
      ),

    createAgent: docsProcedure
      .meta({
        successStatus: 201,
        errors: repositoryErrors,
        errorNotes: noRepository,
        examples: examples.repositoriesCreateAgent,
        openapi: {
          method: 'POST',
          path: `${REPOSITORY_PATH}/agents`,
          tags,
          summary: 'Register a model provider for the chat panel (`docs agent create`)',
          description: 'Answers the credential to put in docs.json as `agent.key`. The provider key is stored encrypted and never returned.',
          protect: true,
        },
      })
      .input(AgentCreate)
      .output(AgentOut)
      .mutation(({ ctx, input }) => ctx.services.docs.chatAgents.create(ctx.orgId, input)),
  }),

  builds: router({
    get: docsProcedure
      .meta({
        errors: { 404: ['NOT_FOUND'] },
        errorNotes: { NOT_FOUND: "No such build of the organization's repositories (`details.reason`: `build`)" },
        examples: examples.buildsGet,
        openapi: {
          method: 'GET',
          path: '/api/docs/builds/{id}',
          tags,
          summary: 'A build: status, progress, validation report',
          description: "A build of one of the organization's repositories: poll it after publishing until it SUCCEEDED or FAILED.",
          protect: true,
        },
      })
      .input(z.object({ id: z.uuid().meta({ description: "The build's id (`builds[].id` of a repository, or a publish's answer)" }) }))
      .output(BuildOut)
      .query(({ ctx, input }) => ctx.services.docs.publishing.build(ctx.orgId, input.id)),
  }),

  domains: router({
    create: docsProcedure
      .meta({
        successStatus: 201,
        errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'], 422: ['VALIDATION_ERROR'] },
        errorNotes: {
          ...noRepository,
          CONFLICT: 'The domain is mapped already, or by another organization that has not proven it yet (`details`: the DNS record that takes it over)',
          VALIDATION_ERROR: "The hostname is this service's own or its vanity domain's",
        },
        examples: examples.domainsCreate,
        openapi: {
          method: 'POST',
          path: '/api/docs/domains',
          tags,
          summary: "Map a custom domain to a repository's sites",
          description:
            'Maps the hostname to the repository. It serves the sites once the DNS record answered in `verification` is published and looked ' +
            'up (periodically, or `POST /api/docs/domains/{hostname}/verify`).',
          protect: true,
        },
      })
      .input(DomainCreate)
      .output(DomainOut)
      .mutation(({ ctx, input }) => ctx.services.docs.domains.add(ctx.orgId, input.hostname, input.owner, input.repo)),

    verify: docsProcedure
      .meta({
        errors: { 404: ['NOT_FOUND'] },
        errorNotes: noDomain,
        examples: examples.domainsVerify,
        openapi: {
          method: 'POST',
          path: '/api/docs/domains/{hostname}/verify',
          tags,
          summary: "Look the domain's DNS challenge up now",
          description: 'Looks the TXT record up now and answers the domain: `verified` once the record holds its value. A DNS failure changes nothing.',
          protect: true,
        },
      })
      .input(DomainRef)
      .output(DomainOut)
      .mutation(({ ctx, input }) => ctx.services.docs.domains.verify(ctx.orgId, input.hostname)),

    remove: docsProcedure
      .meta({
        successStatus: 204,
        errors: { 404: ['NOT_FOUND'] },
        errorNotes: noDomain,
        openapi: {
          method: 'DELETE',
          path: '/api/docs/domains/{hostname}',
          tags,
          summary: 'Unmap a custom domain',
          description: 'The domain stops serving the sites at once; the DNS record may then be removed.',
          protect: true,
        },
      })
      .input(DomainRef)
      .output(z.void())
      .mutation(({ ctx, input }) => ctx.services.docs.domains.remove(ctx.orgId, input.hostname)),
  }),
});
