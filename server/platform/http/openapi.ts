import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import type { Api } from '../errors.ts';
import { procedureMeta } from './procedure-meta.ts';

/** The error body each API documents. */
const errorSchemas = {
  ResourceError: z
    .object({
      message: z.string().meta({ description: 'The action that failed', example: 'Error creating employee resource' }),
      error: z.string().meta({ description: 'What went wrong', example: 'Invalid request: email: Invalid email address' }),
    })
    .meta({ description: 'Error body of the resource management API' }),
  MarketplaceError: z
    .object({
      error: z.string().meta({ description: 'Error code', example: 'AGENT_NOT_FOUND' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional().meta({ description: 'Field -> problem, or context such as `reason`' }),
    })
    .meta({ description: 'Error body of the APIs under /api: the marketplace and documentation hosting' }),
};
const errorSchemaOf: Record<Api, keyof typeof errorSchemas> = { resources: 'ResourceError', marketplace: 'MarketplaceError', docs: 'MarketplaceError' };

const STATUS_TEXT: Record<Api, Record<number, string>> = {
  resources: {
    400: 'Invalid request: the body or query fails validation (each bad field is named)',
    401: 'Missing or unknown API key',
    404: 'Not found',
    409: 'Conflicts with existing data',
    413: 'Request body larger than 100 kB',
    500: 'Internal error',
  },
  marketplace: {
    400: 'INVALID_REQUEST: malformed JSON, wrong content type, body not an object',
    401: 'INVALID_SIGNATURE: missing, malformed, wrong, expired or replayed wallet signature, signed for another host or another body (`details.reason`)',
    403: 'UNAUTHORIZED_ACCESS: the wallet may not do this',
    404: 'AGENT_NOT_FOUND or CONVERSATION_NOT_FOUND',
    409: 'DUPLICATE_REGISTRATION or INVALID_STATUS_TRANSITION',
    422: 'VALIDATION_ERROR: `details` names each bad field',
    429: 'RATE_LIMIT_EXCEEDED (see Retry-After)',
    500: 'INTERNAL_ERROR',
  },
  docs: {
    400: 'INVALID_REQUEST: malformed JSON, wrong content type, body not an object',
    401: 'UNAUTHORIZED: missing or unknown API key (webhooks: a signature that does not match)',
    404: 'NOT_FOUND: no such repository, ref, build or domain for this organization (`details.reason`)',
    409: 'CONFLICT: already registered or mapped',
    413: 'Request body larger than 100 kB',
    422: 'VALIDATION_ERROR: `details` names each bad field',
    500: 'INTERNAL_ERROR',
    503: 'SERVICE_UNAVAILABLE: the git repository could not be fetched (see Retry-After)',
  },
};

/** Wallet authentication: all three headers together. */
const walletSchemes = {
  WalletAddress: { type: 'apiKey', in: 'header', name: 'X-Wallet-Address', description: 'Base58 wallet address' },
  WalletSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description:
      'Base58 Ed25519 signature of `METHOD:URL:TIMESTAMP` (URL = path and query as sent), or, when the request carries ' +
      '`X-Body-SHA256` (lower-case hex SHA-256 of the body bytes as sent; of no bytes without a body), of ' +
      '`v2:METHOD:<host><URL>:TIMESTAMP:BODY_SHA256` (host = this server\'s, e.g. `api.example.com/api/orders`): then good for this host and body only',
  },
  WalletTimestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Unix time in ms; at most 5 min old, 30 s ahead' },
} as const;

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, { description: string; content?: object }>;
};

/**
 * package.json declares no license (a private package): npm calls that UNLICENSED, no permission granted.
 * OpenAPI 3.1 wants an SPDX expression; `LicenseRef-` is SPDX's form for a license not on its list.
 */
const LICENSE = { name: 'UNLICENSED (proprietary: no license granted)', identifier: 'LicenseRef-UNLICENSED' };

/**
 * The OpenAPI 3.1 document of every REST procedure. trpc-to-openapi documents every success as 200,
 * its own error shape and every security scheme as an alternative; this rewrites each operation to
 * what the server really does.
 *
 * `baseUrl` is the server clients are pointed at: by default `/`, the host the document itself was read from
 * (the API reference's Try it out calls the address the page was opened at); PUBLIC_BASE_URL when configured.
 */
export function buildOpenApiDocument(router: AnyRouter, baseUrl = '/'): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: 'Typed Platform API',
    version: '0.1.0',
    description:
      'Resource management API (organization API keys: `Authorization: Bearer <key>`) and agent marketplace API ' +
      '(under `/api`, wallet signatures). Every procedure is also served as native tRPC at `/trpc`.',
    baseUrl: baseUrl === '/' ? baseUrl : baseUrl.replace(/\/+$/, ''),
    securitySchemes: { ApiKey: { type: 'http', scheme: 'bearer', description: 'Organization API key' }, ...walletSchemes },
    defs: errorSchemas,
  });
  doc.info.license = LICENSE;
  // Public unless the operation says otherwise: each protected procedure (meta `openapi.protect`, trpc-to-openapi's
  // default) names its scheme below; public ones (agent search, the webhook, ...) inherit this empty requirement.
  doc.security = [];
  const metaByOperation = new Map([...procedureMeta(router)].map(([path, meta]) => [path.replace(/\./g, '-'), meta]));

  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      const meta = metaByOperation.get(operation.operationId ?? '');
      if (!meta || !operation.responses) continue;
      const api = meta.api ?? 'resources';
      const { 200: ok } = operation.responses;
      const responses: NonNullable<Operation['responses']> = {};
      if (ok) responses[meta.successStatus ?? 200] = meta.successStatus === 204 ? { description: 'No content' } : ok;
      for (const status of [...new Set([...(meta.errorStatuses ?? []), 500])].sort()) {
        responses[status] = {
          description: STATUS_TEXT[api][status] ?? 'Error',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaOf[api]}` } } },
        };
      }
      operation.responses = responses;
      if (meta.openapi?.protect ?? true) {
        operation.security = api === 'marketplace' ? [{ WalletAddress: [], WalletSignature: [], WalletTimestamp: [] }] : [{ ApiKey: [] }];
      }
    }
  }
  // The adapter's own error shapes ({ message, code, issues }) are never sent: keep them out of clients.
  const schemas = doc.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  return doc;
}
