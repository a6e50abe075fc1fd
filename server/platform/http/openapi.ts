import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import type { oas31 } from 'zod-openapi';
import { type Api, type AppErrorCode, statusOf } from '../errors.ts';
import { MAX_BODY_BYTES, MAX_BODY_DEPTH } from './body.ts';
import { type CallKind, type Meta, middlewareDocsOf, type OperationDoc, type ResponseHeader } from './procedure-meta.ts';

/**
 * What each error code means where the procedure says nothing narrower (meta `errorNotes`, a middleware's `notes`).
 * A resource API body carries no code: its `error` text says what went wrong.
 */
const MEANING: Record<AppErrorCode, string> = {
  INVALID_REQUEST: 'The request cannot be read',
  VALIDATION_ERROR: 'The input fails validation: `details` names each bad field',
  PAYLOAD_TOO_LARGE: `The body is larger than ${MAX_BODY_BYTES} bytes`,
  NOT_FOUND: 'Not found',
  INTERNAL_ERROR: 'An unexpected failure (logged by the server)',
  UNAUTHORIZED: 'The API key is missing or unknown',
  CONFLICT: 'Conflicts with existing data',
  INVALID_PAYMENT_HEADER: 'The payment header is malformed or does not pay this order (`details.reason`, `details.field`)',
  INVALID_SIGNATURE: 'The wallet signature is missing, malformed, wrong, expired or already used (`details.reason`)',
  UNAUTHORIZED_ACCESS: 'The signing wallet may not do this',
  AGENT_NOT_FOUND: 'No such agent (or it was deleted)',
  ORDER_NOT_FOUND: 'No such order',
  CONVERSATION_NOT_FOUND: 'No such conversation',
  DUPLICATE_REGISTRATION: 'This wallet has registered an agent already',
  INVALID_STATUS_TRANSITION: 'The order is not in the state this step starts from (`details.status`, `details.requiredStatus`)',
  DUPLICATE_REVIEW: 'The order has its review already',
  IDEMPOTENCY_CONFLICT: 'The Idempotency-Key was used with another request, or its first request is still running (`details.reason`)',
  AMOUNT_MISMATCH: 'The amount paid is not the order price (`details.reason`)',
  AGENT_TOKEN_ACCOUNT_MISSING: "The agent's wallet has no USDC token account (`details`: wallet, mint, tokenAccount)",
  INSUFFICIENT_FUNDS: "The paying wallet's USDC balance is below the price (`details`: balance, required)",
  TRANSACTION_FAILED: 'The blockchain rejected the transaction (`details.reason`)',
  RATE_LIMIT_EXCEEDED: "Too many calls in the window of the call's rule: wait Retry-After seconds (`details`: limit, retryAfterSeconds)",
  SERVICE_UNAVAILABLE: 'Unavailable for now: retry later',
};

/** Where a code means something else under one status: TRANSACTION_FAILED is 503 when the chain cannot be reached. */
const MEANING_AT: Partial<Record<number, Partial<Record<AppErrorCode, string>>>> = {
  503: { TRANSACTION_FAILED: 'The blockchain cannot be reached: what was sent is settled once it can be (`details.reason`)' },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Content too large',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** Reading the body (body.ts): every method but GET may carry one, whether or not the operation takes it. */
const BODY_READ: OperationDoc = {
  errors: { 400: ['INVALID_REQUEST'], 413: ['PAYLOAD_TOO_LARGE'] },
  notes: {
    INVALID_REQUEST: `The body is not one JSON object sent as \`application/json\` in UTF-8 (malformed JSON, another content type, nested deeper than ${MAX_BODY_DEPTH} levels)`,
    PAYLOAD_TOO_LARGE: `The body is larger than ${MAX_BODY_BYTES} bytes (the connection is closed after the answer)`,
  },
};

/** Input validation (zod): 422 in the APIs under /api, 400 in the resource API. */
const validationDoc = (api: Api): OperationDoc => ({
  errors: { [statusOf('VALIDATION_ERROR', api)]: ['VALIDATION_ERROR'] },
  notes: {
    VALIDATION_ERROR:
      api === 'resources' ? 'The body, path or query fails validation: `error` names each bad field' : 'The body, path or query fails validation: `details` names each bad field',
  },
});

/** Whether an input can be refused by validation: it has a field, or refuses unknown ones. */
function validates(input: z.ZodType | undefined): boolean {
  const schema = input instanceof z.ZodOptional ? input.unwrap() : input;
  if (!schema || schema instanceof z.ZodVoid || schema instanceof z.ZodUndefined) return false;
  if (!(schema instanceof z.ZodObject)) return true;
  return Object.keys(schema.shape).length > 0 || schema.def.catchall instanceof z.ZodNever;
}

const text = (description: string, example?: string): oas31.SchemaObject => ({ type: 'string', description, ...(example ? { example } : {}) });

/** The body of an error under /api: the code (one of the API's), a message, and details for some codes. */
const apiError = (description: string, codes: AppErrorCode[]): oas31.SchemaObject => ({
  type: 'object',
  description,
  properties: {
    error: { type: 'string', enum: codes, description: 'The error code: each operation lists its own, per status, and when it is answered' },
    message: text('What went wrong, for people'),
    details: { type: 'object', additionalProperties: {}, description: 'Field -> problem, or context such as `reason`' },
  },
  required: ['error', 'message'],
});

/** The error body of each API: the resource API's names the failed action; those under /api carry the code. */
const errorSchemas = (codes: Record<'marketplace' | 'docs', AppErrorCode[]>): Record<string, oas31.SchemaObject> => ({
  ResourceError: {
    type: 'object',
    description: 'Error body of the resource management API',
    properties: {
      message: text('The action that failed', 'Error creating employee resource'),
      error: text('What went wrong', 'Invalid request: email: Invalid email address'),
    },
    required: ['message', 'error'],
  },
  MarketplaceError: apiError('Error body of the agent marketplace API (under /api and /dev)', codes.marketplace),
  DocsError: apiError('Error body of the documentation hosting API (under /api/docs)', codes.docs),
});
const errorSchemaOf: Record<Api, string> = { resources: 'ResourceError', marketplace: 'MarketplaceError', docs: 'DocsError' };

const TAGS: Record<string, string> = {
  'Employee resources': "An organization's employee resources (resource management API: an organization API key)",
  'Asset resources': "An organization's asset resources (resource management API: an organization API key)",
  'All resources': 'Employee and asset resources together',
  Agents: 'AI agents offering services: public search and detail, registration and upkeep by their wallet',
  Conversations: 'A consumer and an agent talk before and around an order (participants only)',
  Orders: 'Orders paid in USDC on Solana: created by the agent, paid by the consumer, delivered, reviewed',
  Payments: 'What and where to pay',
  Development: 'Calls that exist only with the embedded ledger, for trying the API out',
  'Documentation hosting': 'Documentation sites built from git repositories, their builds, custom domains and chat agents (an organization API key)',
};

/**
 * package.json declares no license (a private package): npm calls that UNLICENSED, no permission granted.
 * OpenAPI 3.1 wants an SPDX expression; `LicenseRef-` is SPDX's form for a license not on its list.
 */
const LICENSE = { name: 'UNLICENSED (proprietary: no license granted)', identifier: 'LicenseRef-UNLICENSED' };

/** Where the server listens unless PORT says otherwise (config.ts). */
const LOCAL_SERVER = { url: 'http://127.0.0.1:3000', description: 'A server run locally with the default PORT (`npm start`)' };

type Operation = oas31.OperationObject & { operationId: string };
type Procedure = { _def: { type: CallKind['type']; meta?: Meta; inputs: z.ZodType[] } };

/** The parts of an operation's documentation, merged: codes per status and notes per code in the order given. */
function merge(docs: OperationDoc[]) {
  const errors = new Map<number, Set<AppErrorCode>>();
  const notes = new Map<AppErrorCode, string[]>();
  for (const doc of docs) {
    for (const [status, codes] of Object.entries(doc.errors ?? {})) {
      const set = errors.get(Number(status)) ?? errors.set(Number(status), new Set()).get(Number(status))!;
      for (const code of codes) set.add(code);
    }
    for (const [code, note] of Object.entries(doc.notes ?? {}) as [AppErrorCode, string][]) notes.set(code, [...(notes.get(code) ?? []), note]);
  }
  const union = <K extends 'security' | 'parameters'>(key: K) => Object.assign({}, ...docs.map((doc) => doc[key])) as NonNullable<OperationDoc[K]>;
  // A header several parts set (Retry-After: rate limits on 429, outages on 503) is on the answers of each.
  const headers: Record<string, ResponseHeader> = {};
  for (const [name, header] of docs.flatMap((doc) => Object.entries(doc.headers ?? {}))) {
    const before = headers[name];
    const [a, b] = [before?.on, header.on];
    headers[name] = !before ? header : a && b ? { header: header.header, on: (status, codes) => a(status, codes) || b(status, codes) } : { header: header.header };
  }
  return { errors, notes, security: union('security'), parameters: union('parameters'), headers };
}

/** `Not found. The body's error is one of: ...`, each code with when it is answered. */
function errorDescription(api: Api, status: number, codes: AppErrorCode[], notes: Map<AppErrorCode, string[]>) {
  // A code answered for several reasons (a bad body, a bad Idempotency-Key) gets a line for each.
  const lines = codes.flatMap((code) => (notes.get(code) ?? [MEANING_AT[status]?.[code] ?? MEANING[code]]).map((when) => [code, when] as const));
  if (api === 'resources') return [`${STATUS_TEXT[status]}: \`error\` says what went wrong.`, ...lines.map(([, when]) => `- ${when}`)].join('\n');
  return [`${STATUS_TEXT[status]}. \`error\` is one of:`, ...lines.map(([code, when]) => `- \`${code}\`: ${when}`)].join('\n');
}

/** The headers of one answer, as references to components/headers. */
const headersOf = (headers: Record<string, ResponseHeader>, status: number, codes: AppErrorCode[]) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([, header]) => header.on?.(status, codes) ?? true)
      .map(([name]) => [name, { $ref: `#/components/headers/${name}` }]),
  );

/**
 * The OpenAPI 3.1 document of every REST procedure. trpc-to-openapi documents every success as 200, its own error
 * shape and every security scheme as an alternative; this rewrites each operation to what the server really does,
 * from what runs for it: its middlewares (`documented`: credentials, rate limits, Idempotency-Key, failures), body
 * reading, input validation and the procedure's own errors (meta `errors`).
 *
 * `baseUrl` is the server clients are pointed at: by default `/`, the host the document itself was read from
 * (the API reference's Try it out calls the address the page was opened at); PUBLIC_BASE_URL when configured.
 */
export function buildOpenApiDocument(router: AnyRouter, baseUrl = '/'): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: 'Typed Platform API',
    version: '0.1.0',
    description:
      'Three APIs: resource management (organization API keys: `Authorization: Bearer <key>`), the agent marketplace (under `/api`, ' +
      'wallet signatures) and documentation hosting (under `/api/docs`, organization API keys). Every procedure is also served as native ' +
      'tRPC at `/trpc`. Each operation lists every status it answers, with the error codes and when they happen.',
    baseUrl: baseUrl === '/' ? baseUrl : baseUrl.replace(/\/+$/, ''),
    securitySchemes: {},
  });
  doc.info.license = LICENSE;
  doc.info.contact = { name: 'Typed Platform maintainers' };
  doc.servers = [{ url: doc.servers?.[0]?.url ?? '/', description: 'This server (relative to where this document was read), or PUBLIC_BASE_URL' }, LOCAL_SERVER];
  doc.tags = Object.entries(TAGS).map(([name, description]) => ({ name, description }));
  // Public unless the operation says otherwise: each protected operation names the scheme its credential check
  // documents; public ones (agent search, the webhook, ...) inherit this empty requirement.
  doc.security = [];
  const components = (doc.components ??= {}) as oas31.ComponentsObject;
  const shared = {
    securitySchemes: (components.securitySchemes ??= {}),
    parameters: (components.parameters ??= {}),
    headers: (components.headers ??= {}),
  };
  const codesOf: Record<'marketplace' | 'docs', Set<AppErrorCode>> = { marketplace: new Set(), docs: new Set() };
  const procedures = new Map(
    Object.entries(router._def.procedures as Record<string, Procedure>).map(([path, procedure]) => [path.replace(/\./g, '-'), procedure]),
  );

  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const procedure = procedures.get(operation.operationId)!;
      const meta = procedure._def.meta ?? {};
      const api = meta.api ?? 'resources';
      const parts = merge([
        ...middlewareDocsOf(procedure, { type: procedure._def.type, api }),
        method === 'get' ? {} : BODY_READ,
        validates(procedure._def.inputs[0]) ? validationDoc(api) : {},
        { errors: meta.errors ?? {}, notes: meta.errorNotes ?? {}, security: meta.security ?? {}, parameters: meta.parameters ?? {} },
      ]);
      Object.assign(shared.securitySchemes, parts.security);
      Object.assign(shared.parameters, parts.parameters);
      Object.assign(shared.headers, Object.fromEntries(Object.entries(parts.headers).map(([name, { header }]) => [name, header])));

      const success = meta.successStatus ?? 200;
      const ok = operation.responses?.['200'] as oas31.ResponseObject;
      const answer = ok.content?.['application/json'];
      if (answer && meta.examples?.response !== undefined) answer.example = meta.examples.response;
      const responses: oas31.ResponsesObject = {
        [success]: {
          description: success === 204 ? 'No content' : (ok.description ?? 'Success'),
          ...(success === 204 ? {} : { content: ok.content }),
          headers: headersOf(parts.headers, success, []),
        },
      };
      for (const [status, set] of [...parts.errors].sort(([a], [b]) => a - b)) {
        const codes = [...set];
        if (api !== 'resources') for (const code of codes) codesOf[api].add(code);
        responses[status] = {
          description: errorDescription(api, status, codes, parts.notes),
          headers: headersOf(parts.headers, status, codes),
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaOf[api]}` } } },
        };
      }
      for (const response of Object.values(responses) as oas31.ResponseObject[]) if (!Object.keys(response.headers ?? {}).length) delete response.headers;
      operation.responses = responses;

      describeParameters(operation, procedure._def.inputs[0]);
      const names = Object.keys(parts.security);
      if (names.length) operation.security = [Object.fromEntries(names.map((name) => [name, []]))];
      else delete operation.security;
      const parameters = Object.keys(parts.parameters).map((name) => ({ $ref: `#/components/parameters/${name}` }));
      if (parameters.length) operation.parameters = [...(operation.parameters ?? []), ...parameters];
      if (meta.requestBody) operation.requestBody = structuredClone(meta.requestBody);
      else optionalBody(operation.requestBody as oas31.RequestBodyObject | undefined);
      const content = (operation.requestBody as oas31.RequestBodyObject | undefined)?.content['application/json'];
      const paths = new Set((operation.parameters as oas31.ParameterObject[] | undefined)?.filter((p) => p.in === 'path').map((p) => p.name));
      // The example is the whole input: path parameters are not part of the body.
      if (content && meta.examples?.request) content.example = Object.fromEntries(Object.entries(meta.examples.request).filter(([key]) => !paths.has(key)));
    }
  }
  components.schemas = {
    ...components.schemas,
    ...errorSchemas({ marketplace: [...codesOf.marketplace].sort(), docs: [...codesOf.docs].sort() }),
  };
  // The adapter's own error shapes ({ message, code, issues }) are never sent: keep them out of clients.
  for (const name of Object.keys(components.schemas)) if (name.startsWith('error.')) delete components.schemas[name];
  return doc;
}

/**
 * Each path and query parameter described as its input field is: trpc-to-openapi wraps an optional field anew and
 * drops the description given to it (`z.number().optional().meta({ description })`).
 */
function describeParameters(operation: Operation, input: z.ZodType | undefined) {
  const object = input instanceof z.ZodOptional ? input.unwrap() : input;
  const shape: Record<string, z.ZodType> = object instanceof z.ZodObject ? object.shape : {};
  for (const parameter of (operation.parameters ?? []) as oas31.ParameterObject[]) {
    const field = shape[parameter.name];
    const description = field?.description ?? (field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType).description : undefined) ?? (parameter.schema as oas31.SchemaObject | undefined)?.description;
    if (!parameter.description && description) parameter.description = description;
  }
}

/** A generated body none of whose fields is required is optional: a bodiless POST, PUT or PATCH is accepted. */
function optionalBody(body: oas31.RequestBodyObject | undefined) {
  const schema = body?.content['application/json']?.schema as oas31.SchemaObject | undefined;
  if (body && schema?.type === 'object' && !schema.required?.length) body.required = false;
}
