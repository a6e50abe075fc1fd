/**
 * Example inputs and answers of documentation hosting's operations (openapi.json shows them; the input's body part as
 * the request example). tests/platform/openapi-document.test.ts checks each against the procedure's zod schemas.
 */
const site = { owner: 'acme', repo: 'widgets' };
const createdAt = '2026-01-15T09:30:00.000Z';
const commit = '9fceb02d0ae598e95dc970b74767f19372d61af8';
const buildId = 'd1f3a5c7-9e2b-4d4f-b6a8-0c2e4f6a8b1d';

const build = {
  id: buildId,
  ...site,
  commit,
  status: 'QUEUED',
  refs: ['refs/heads/main'],
  pages: null,
  problems: [],
  error: null,
  progress: null,
  createdAt,
  startedAt: null,
  finishedAt: null,
};
const succeeded = {
  ...build,
  status: 'SUCCEEDED',
  pages: 24,
  problems: [{ severity: 'warning', file: 'docs.json', line: 12, column: 5, path: 'navigation.tabs[1]', message: 'The tab has no pages' }],
  progress: { phase: 'done', done: 24, total: 24 },
  startedAt: '2026-01-15T09:30:02.000Z',
  finishedAt: '2026-01-15T09:30:41.000Z',
};
const readerBuilds = { pullRequests: true, branches: true, tags: true, commits: false };
const repository = {
  ...site,
  source: 'https://github.com/acme/widgets.git',
  defaultBranch: 'main',
  url: '/acme/widgets',
  deployments: [{ ref: 'refs/heads/main', url: '/acme/widgets', wantedCommit: commit, servedCommit: commit, build: buildId }],
  domains: ['docs.acme.com'],
  readerBuilds,
  createdAt,
};
const domain = {
  hostname: 'docs.acme.com',
  ...site,
  verified: false,
  verification: { type: 'TXT', name: '_docs-challenge.docs.acme.com', value: 'docs-verification=3f9c2a7e5b1d4c6a8e0f2b4d6c8a1e3f' },
  createdAt,
};

/** A GitHub push delivery, shortened to the fields the server reads and a few it ignores. */
export const pushDelivery = {
  ref: 'refs/heads/main',
  before: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
  after: commit,
  created: false,
  deleted: false,
  forced: false,
  repository: { id: 1296269, name: 'widgets', full_name: 'acme/widgets', default_branch: 'main' },
  pusher: { name: 'octocat', email: 'octocat@github.com' },
  head_commit: { id: commit, message: 'Document the widget API', timestamp: '2026-01-15T10:29:58+01:00' },
};

export const docsExamples = {
  repositoriesCreate: {
    request: { ...site, source: repository.source },
    response: {
      ...repository,
      deployments: [],
      domains: [],
      webhookSecret: '8d5f3c1a9e7b2d4f6a8c0e2b4d6f8a1c3e5b7d9f',
      webhookUrl: 'https://platform.example.org/api/docs/repositories/acme/widgets/webhook',
    },
  },
  repositoriesGet: { response: repository },
  repositoriesUpdate: { request: { ...site, readerBuilds: { commits: true } }, response: { ...repository, readerBuilds: { ...readerBuilds, commits: true } } },
  repositoriesPublish: { request: { ...site, ref: 'main' }, response: build },
  repositoriesBuilds: { response: { builds: [succeeded], total: 1, limit: 20, offset: 0 } },
  repositoriesWebhook: { request: { ...site, ...pushDelivery }, response: { event: 'push', builds: [build] } },
  repositoriesCreateAgent: {
    request: { ...site, provider: 'anthropic', apiKey: 'sk-ant-api03-...' },
    response: { key: 'dak_q3Xv9bTz1LmN4pR7sW2yK8dF5hJ0cGaE', provider: 'anthropic', model: null, createdAt },
  },
  buildsGet: { response: succeeded },
  domainsCreate: { request: { hostname: domain.hostname, ...site }, response: domain },
  domainsVerify: { response: { ...domain, verified: true } },
};
