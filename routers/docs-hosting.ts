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
import { orgProcedure, publicProcedure } from './procedures.ts';
import { router } from './trpc.ts';

/** Organization calls of documentation hosting (docs/docs-hosting.md): an API key, `{ error, message, details }` errors. */
const docsProcedure = orgProcedure.meta({ api: 'docs' });
const tags = ['Documentation hosting'];

export const docsRouter = router({
  repositories: router({
    create: docsProcedure
      .meta({
        successStatus: 201,
        errorStatuses: [400, 401, 409, 413, 422],
        openapi: { method: 'POST', path: '/api/docs/repositories', tags, summary: 'Register a repository: owner/repo -> a git URL', protect: true },
      })
      .input(RepositoryCreate)
      .output(RepositoryCreated)
      .mutation(({ ctx, input }) => ctx.services.docs.repositories.register(ctx.orgId, input)),

    get: docsProcedure
      .meta({
        errorStatuses: [401, 404, 422],
        openapi: { method: 'GET', path: REPOSITORY_PATH, tags, summary: 'A repository: what each ref serves, its domains', protect: true },
      })
      .input(RepositoryRef)
      .output(RepositoryOut)
      .query(({ ctx, input }) => ctx.services.docs.repositories.get(ctx.orgId, input.owner, input.repo)),

    update: docsProcedure
      .meta({
        errorStatuses: [400, 401, 404, 422],
        openapi: { method: 'PATCH', path: REPOSITORY_PATH, tags, summary: 'Change which unpublished refs readers may have built', protect: true },
      })
      .input(RepositoryUpdate)
      .output(RepositoryOut)
      .mutation(({ ctx, input }) => ctx.services.docs.repositories.update(ctx.orgId, input.owner, input.repo, input.readerBuilds)),

    publish: docsProcedure
      .meta({
        errorStatuses: [400, 401, 404, 422, 503],
        openapi: {
          method: 'POST',
          path: `${REPOSITORY_PATH}/publish`,
          tags,
          summary: 'Publish a ref: fetch the repository and build its commit',
          description: 'Answers the build (reused when the commit was built before). The ref keeps serving its last good build until this one succeeds.',
          protect: true,
        },
      })
      .input(PublishInput)
      .output(BuildOut)
      .mutation(({ ctx, input }) => ctx.services.docs.publishing.publish(ctx.orgId, input.owner, input.repo, input.ref)),

    builds: docsProcedure
      .meta({
        errorStatuses: [401, 404, 422],
        openapi: { method: 'GET', path: `${REPOSITORY_PATH}/builds`, tags, summary: 'Builds of a repository, newest first', protect: true },
      })
      .input(BuildListInput)
      .output(BuildList)
      .query(({ ctx, input: { owner, repo, ...page } }) => ctx.services.docs.publishing.builds(ctx.orgId, owner, repo, page)),

    webhook: publicProcedure
      .meta({
        api: 'docs',
        errorStatuses: [400, 401, 404, 413, 422, 503],
        openapi: {
          method: 'POST',
          path: WEBHOOK_PATH,
          tags,
          summary: 'Push webhook (GitHub format)',
          description:
            'Signed with the repository webhook secret: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`. `X-GitHub-Event`: `push` publishes the pushed branch or tag, `pull_request` the pull request, `ping` nothing.',
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
        errorStatuses: [400, 401, 404, 413, 422],
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
        errorStatuses: [401, 404, 422],
        openapi: { method: 'GET', path: '/api/docs/builds/{id}', tags, summary: 'A build: status, progress, validation report', protect: true },
      })
      .input(z.object({ id: z.uuid() }))
      .output(BuildOut)
      .query(({ ctx, input }) => ctx.services.docs.publishing.build(ctx.orgId, input.id)),
  }),

  domains: router({
    create: docsProcedure
      .meta({
        successStatus: 201,
        errorStatuses: [400, 401, 404, 409, 422],
        openapi: { method: 'POST', path: '/api/docs/domains', tags, summary: "Map a custom domain to a repository's sites", protect: true },
      })
      .input(DomainCreate)
      .output(DomainOut)
      .mutation(({ ctx, input }) => ctx.services.docs.domains.add(ctx.orgId, input.hostname, input.owner, input.repo)),

    verify: docsProcedure
      .meta({
        errorStatuses: [401, 404, 422],
        openapi: { method: 'POST', path: '/api/docs/domains/{hostname}/verify', tags, summary: "Look the domain's DNS challenge up now", protect: true },
      })
      .input(DomainRef)
      .output(DomainOut)
      .mutation(({ ctx, input }) => ctx.services.docs.domains.verify(ctx.orgId, input.hostname)),

    remove: docsProcedure
      .meta({
        successStatus: 204,
        errorStatuses: [401, 404, 422],
        openapi: { method: 'DELETE', path: '/api/docs/domains/{hostname}', tags, summary: 'Unmap a custom domain', protect: true },
      })
      .input(DomainRef)
      .output(z.void())
      .mutation(({ ctx, input }) => ctx.services.docs.domains.remove(ctx.orgId, input.hostname)),
  }),
});
