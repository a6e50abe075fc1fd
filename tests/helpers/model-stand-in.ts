/**
 * A local stand-in for the four model providers' HTTP APIs (server/hosting/providers.ts), so tests never reach
 * the internet. Each provider lives under its own prefix, which is its base URL:
 *
 *   const standIn = await startModelStandIn({ keys: { openai: 'sk-test' } });
 *   await complete({ provider: 'openai', apiKey: 'sk-test', baseUrl: standIn.baseUrl('openai'), ... });
 *   standIn.requests[0]   // { provider: 'openai', method: 'POST', path: '/v1/chat/completions', headers, body }
 *
 * Requests are checked the way the real APIs check them (path and method, the auth header and key, the JSON
 * body's required fields, roles and unknown fields: OpenAI, Anthropic, Gemini and Mistral all refuse what they
 * do not know) and refused with that provider's status and error body. A valid request gets a deterministic
 * answer built from what reached the "model":
 *
 *   Answer (<provider>/<model>): <last user message>
 *   Sources seen: <first 60 characters of the system prompt>
 *   Turns: user > assistant > user        (Gemini: user > model > user)
 *
 * Anthropic's and Gemini's answers come in two text blocks / parts (the first two lines, then the third) so a
 * client has to concatenate them. `setNext` queues a canned response (status, body, headers) or a hang for the
 * next request(s), whatever they are; they are recorded all the same.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MODEL_PROVIDERS, type ModelProvider } from '../../server/docs-hosting/chat/providers.ts';

export interface RecordedRequest {
  /** From the path prefix; undefined for a path outside every provider. */
  provider: ModelProvider | undefined;
  method: string;
  /** The path after the provider prefix, query string included (`/v1/chat/completions`). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; the raw text when it is not JSON, undefined when empty. */
  body: unknown;
}

export type StandInBehaviour =
  /** Answer this instead; a string body is sent as is, anything else as JSON. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answer (the connection stays open until the client gives up or close()). */
  | { hang: true };

export interface StandInOptions {
  /** The key each provider accepts; a provider not listed accepts any non-empty key. */
  keys?: Partial<Record<ModelProvider, string>>;
}

export interface ModelStandIn {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The base URL to give complete() for a provider: `${url}/${provider}`. */
  baseUrl(provider: ModelProvider): string;
  requests: RecordedRequest[];
  /** Queue a behaviour for the next request (several calls queue several, first in first out). */
  setNext(behaviour: StandInBehaviour): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: unknown;
}

/** What a valid request carried, normalized across providers. */
interface Conversation {
  model: string;
  system: string;
  roles: string[];
  question: string;
}

type Checked = { ok: Conversation } | { error: Reply };

let sequence = 0;
const requestId = () => `standin_${(++sequence).toString().padStart(6, '0')}`;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPositiveInteger = (value: unknown) => Number.isInteger(value) && (value as number) > 0;

/** The text of a message's content: a string, or text blocks/parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function answerText(provider: ModelProvider, { model, system, roles, question }: Conversation): [string, string] {
  return [`Answer (${provider}/${model}): ${question}\nSources seen: ${system.slice(0, 60)}\n`, `Turns: ${roles.join(' > ')}`];
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

// --- OpenAI -----------------------------------------------------------------------------------------------

const OPENAI_FIELDS = new Set([
  'model', 'messages', 'max_completion_tokens', 'max_tokens', 'temperature', 'top_p', 'n', 'stream', 'stream_options', 'stop',
  'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'user', 'seed', 'tools', 'tool_choice',
  'parallel_tool_calls', 'response_format', 'reasoning_effort', 'verbosity', 'store', 'metadata', 'service_tier', 'prediction',
  'modalities', 'audio', 'web_search_options', 'safety_identifier', 'prompt_cache_key',
]);
const OPENAI_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

const openaiError = (status: number, message: string, param: string | null = null, code: string | null = null, type = 'invalid_request_error'): Reply => ({
  status,
  body: { error: { message, type, param, code } },
});

/** OpenAI's own masking of a wrong key in its 401 message. */
const masked = (key: string) => (key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}` : '*'.repeat(key.length));

function checkOpenai(method: string, path: string, headers: IncomingHttpHeaders, body: unknown, expectedKey: string | undefined): Checked {
  if (method !== 'POST' || path !== '/v1/chat/completions') return { error: openaiError(404, `Invalid URL (${method} ${path})`) };
  const key = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  if (!key)
    return {
      error: openaiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."),
    };
  if (expectedKey !== undefined && key !== expectedKey)
    return { error: openaiError(401, `Incorrect API key provided: ${masked(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`, null, 'invalid_api_key') };
  if (!isObject(body))
    return { error: openaiError(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)") };
  const unknown = Object.keys(body).find((field) => !OPENAI_FIELDS.has(field));
  if (unknown) return { error: openaiError(400, `Unrecognized request argument supplied: ${unknown}`) };
  if (typeof body.model !== 'string' || !body.model) return { error: openaiError(400, 'you must provide a model parameter') };
  const { messages } = body;
  if (messages === undefined) return { error: openaiError(400, "Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter') };
  if (!Array.isArray(messages) || messages.length === 0)
    return { error: openaiError(400, "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array') };
  for (const [i, message] of messages.entries()) {
    if (!isObject(message) || !OPENAI_ROLES.includes(message.role as string))
      return {
        error: openaiError(400, `Invalid value: '${String(isObject(message) ? message.role : message)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, 'invalid_value'),
      };
    if (message.content === undefined && message.role !== 'assistant')
      return { error: openaiError(400, `Missing required parameter: 'messages[${i}].content'.`, `messages[${i}].content`, 'missing_required_parameter') };
  }
  // What current (reasoning) models say; max_completion_tokens is the parameter every model accepts.
  if (body.max_tokens !== undefined)
    return { error: openaiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter') };
  if (body.max_completion_tokens !== undefined && !isPositiveInteger(body.max_completion_tokens))
    return { error: openaiError(400, `Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1.`, 'max_completion_tokens', 'integer_below_min_value') };
  return { ok: chatConversation(body.model, messages as Record<string, unknown>[]) };
}

function chatConversation(model: string, messages: Record<string, unknown>[]): Conversation {
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)).join('\n');
  const turns = messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
  return { model, system, roles: turns.map((m) => String(m.role)), question: textOf(turns.findLast((m) => m.role === 'user')?.content) };
}

function chatCompletion(provider: 'openai' | 'mistral', conversation: Conversation): unknown {
  const content = answerText(provider, conversation).join('');
  const prompt = words(conversation.system) + conversation.roles.length;
  return {
    id: `chatcmpl-${requestId()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: conversation.model,
    choices: [
      {
        index: 0,
        message: provider === 'openai' ? { role: 'assistant', content, refusal: null, annotations: [] } : { role: 'assistant', content, tool_calls: null, prefix: false },
        finish_reason: 'stop',
        ...(provider === 'openai' ? { logprobs: null } : {}),
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: words(content), total_tokens: prompt + words(content) },
  };
}

// --- Mistral ----------------------------------------------------------------------------------------------

const MISTRAL_FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'temperature', 'top_p', 'stream', 'stop', 'random_seed', 'response_format', 'tools', 'tool_choice',
  'presence_penalty', 'frequency_penalty', 'n', 'prediction', 'parallel_tool_calls', 'prompt_mode', 'safe_prompt', 'metadata',
]);
const MISTRAL_ROLES = ['system', 'user', 'assistant', 'tool'];

/** Mistral's validation failures: 422 with pydantic-style details. */
const mistralInvalid = (detail: { type: string; loc: (string | number)[]; msg: string; input?: unknown }[]): Reply => ({
  status: 422,
  body: { object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null },
});

function checkMistral(method: string, path: string, headers: IncomingHttpHeaders, body: unknown, expectedKey: string | undefined): Checked {
  if (method !== 'POST' || path !== '/v1/chat/completions') return { error: { status: 404, body: { detail: 'Not Found' } } };
  const key = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  if (!key || (expectedKey !== undefined && key !== expectedKey)) return { error: { status: 401, body: { message: 'Unauthorized', request_id: requestId() } } };
  if (!isObject(body)) return { error: mistralInvalid([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' }]) };
  const extra = Object.keys(body).filter((field) => !MISTRAL_FIELDS.has(field));
  if (extra.length) return { error: mistralInvalid(extra.map((field) => ({ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted', input: body[field] }))) };
  const missing = (['model', 'messages'] as const).filter((field) => body[field] === undefined);
  if (missing.length) return { error: mistralInvalid(missing.map((field) => ({ type: 'missing', loc: ['body', field], msg: 'Field required' }))) };
  if (typeof body.model !== 'string') return { error: mistralInvalid([{ type: 'string_type', loc: ['body', 'model'], msg: 'Input should be a valid string', input: body.model }]) };
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return { error: mistralInvalid([{ type: 'too_short', loc: ['body', 'messages'], msg: 'List should have at least 1 item after validation, not 0', input: body.messages }]) };
  for (const [i, message] of body.messages.entries()) {
    if (!isObject(message) || !MISTRAL_ROLES.includes(message.role as string))
      return {
        error: mistralInvalid([
          { type: 'union_tag_invalid', loc: ['body', 'messages', i], msg: `Input tag '${String(isObject(message) ? message.role : message)}' found using 'role' does not match any of the expected tags: 'assistant', 'system', 'tool', 'user'` },
        ]),
      };
    if (message.role !== 'assistant' && message.content === undefined) return { error: mistralInvalid([{ type: 'missing', loc: ['body', 'messages', i, message.role as string, 'content'], msg: 'Field required' }]) };
  }
  if (body.max_tokens !== undefined && !(Number.isInteger(body.max_tokens) && (body.max_tokens as number) >= 0))
    return { error: mistralInvalid([{ type: 'greater_than_equal', loc: ['body', 'max_tokens'], msg: 'Input should be greater than or equal to 0', input: body.max_tokens }]) };
  return { ok: chatConversation(body.model, body.messages as Record<string, unknown>[]) };
}

// --- Anthropic --------------------------------------------------------------------------------------------

const ANTHROPIC_FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'system', 'metadata', 'stop_sequences', 'stream', 'temperature', 'top_p', 'top_k', 'tools',
  'tool_choice', 'thinking', 'service_tier', 'container', 'mcp_servers', 'context_management',
]);

const anthropicError = (status: number, type: string, message: string): Reply => ({ status, body: { type: 'error', error: { type, message }, request_id: `req_${requestId()}` } });
const anthropicInvalid = (message: string) => anthropicError(400, 'invalid_request_error', message);

function checkAnthropic(method: string, path: string, headers: IncomingHttpHeaders, body: unknown, expectedKey: string | undefined): Checked {
  if (method !== 'POST' || path !== '/v1/messages') return { error: anthropicError(404, 'not_found_error', 'Not Found') };
  const key = headers['x-api-key'];
  if (typeof key !== 'string' || !key) return { error: anthropicError(401, 'authentication_error', 'x-api-key header is required') };
  if (expectedKey !== undefined && key !== expectedKey) return { error: anthropicError(401, 'authentication_error', 'invalid x-api-key') };
  const version = headers['anthropic-version'];
  if (!version) return { error: anthropicInvalid('anthropic-version: header is required') };
  if (version !== '2023-06-01' && version !== '2023-01-01') return { error: anthropicInvalid(`anthropic-version: invalid version '${String(version)}'`) };
  if (!isObject(body)) return { error: anthropicInvalid('There was an issue with your request body: it must be a JSON object') };
  const extra = Object.keys(body).find((field) => !ANTHROPIC_FIELDS.has(field));
  if (extra) return { error: anthropicInvalid(`${extra}: Extra inputs are not permitted`) };
  for (const field of ['model', 'max_tokens', 'messages'] as const) if (body[field] === undefined) return { error: anthropicInvalid(`${field}: Field required`) };
  if (typeof body.model !== 'string') return { error: anthropicInvalid('model: Input should be a valid string') };
  if (!isPositiveInteger(body.max_tokens)) return { error: anthropicInvalid('max_tokens: Input should be greater than or equal to 1') };
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) return { error: anthropicInvalid('system: Input should be a valid list') };
  if (!Array.isArray(body.messages)) return { error: anthropicInvalid('messages: Input should be a valid list') };
  if (body.messages.length === 0) return { error: anthropicInvalid('messages: at least one message is required') };
  for (const [i, message] of body.messages.entries()) {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) return { error: anthropicInvalid(`messages.${i}.role: Input should be 'user' or 'assistant'`) };
    if (message.content === undefined) return { error: anthropicInvalid(`messages.${i}.content: Field required`) };
  }
  const messages = body.messages as Record<string, unknown>[];
  return {
    ok: {
      model: body.model,
      system: textOf(body.system),
      roles: messages.map((m) => String(m.role)),
      question: textOf(messages.findLast((m) => m.role === 'user')?.content),
    },
  };
}

function anthropicMessage(conversation: Conversation): unknown {
  const [first, second] = answerText('anthropic', conversation);
  return {
    id: `msg_${requestId()}`,
    type: 'message',
    role: 'assistant',
    model: conversation.model,
    content: [
      { type: 'text', text: first },
      { type: 'text', text: second },
    ],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: words(conversation.system) + conversation.roles.length, output_tokens: words(first + second) },
  };
}

// --- Google Gemini ----------------------------------------------------------------------------------------

// The Gemini API takes proto-JSON: camelCase and snake_case names are both accepted.
const GOOGLE_FIELDS = new Set([
  'contents', 'systemInstruction', 'system_instruction', 'generationConfig', 'generation_config', 'safetySettings', 'safety_settings',
  'tools', 'toolConfig', 'tool_config', 'cachedContent', 'cached_content',
]);

const googleError = (code: number, status: string, message: string, details?: unknown[]): Reply => ({ status: code, body: { error: { code, message, status, ...(details ? { details } : {}) } } });
const googleInvalid = (message: string) => googleError(400, 'INVALID_ARGUMENT', message);

function checkGoogle(method: string, path: string, headers: IncomingHttpHeaders, body: unknown, expectedKey: string | undefined): Checked {
  const url = new URL(path, 'http://stand-in');
  const model = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(url.pathname)?.[1];
  if (method !== 'POST' || !model) return { error: googleError(404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`) };
  const key = headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? undefined;
  if (typeof key !== 'string' || !key)
    return {
      error: googleError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."),
    };
  // A wrong key is a 400 with reason API_KEY_INVALID, not a 401.
  if (expectedKey !== undefined && key !== expectedKey)
    return {
      error: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
        { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
      ]),
    };
  if (!isObject(body)) return { error: googleInvalid('Invalid JSON payload received. Unexpected token.') };
  const unknown = Object.keys(body).find((field) => !GOOGLE_FIELDS.has(field));
  if (unknown) return { error: googleInvalid(`Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`) };
  const { contents } = body;
  if (!Array.isArray(contents) || contents.length === 0) return { error: googleInvalid('* GenerateContentRequest.contents: contents is not specified\n') };
  for (const [i, content] of contents.entries()) {
    if (!isObject(content)) return { error: googleInvalid(`Invalid JSON payload received. Unknown name "" at 'contents[${i}]': Proto field is not repeating, cannot start list.`) };
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') return { error: googleInvalid('Please use a valid role: user, model.') };
    if (!Array.isArray(content.parts) || content.parts.length === 0) return { error: googleInvalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`) };
  }
  const system = body.systemInstruction ?? body.system_instruction;
  if (system !== undefined && !(isObject(system) && Array.isArray(system.parts))) return { error: googleInvalid("Invalid value at 'system_instruction' (type.googleapis.com/google.ai.generativelanguage.v1beta.Content)") };
  const config = body.generationConfig ?? body.generation_config;
  if (config !== undefined) {
    if (!isObject(config)) return { error: googleInvalid("Invalid value at 'generation_config' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig)") };
    const max = config.maxOutputTokens ?? config.max_output_tokens;
    if (max !== undefined && !Number.isInteger(max)) return { error: googleInvalid(`Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), ${JSON.stringify(max)}`) };
  }
  const turns = contents as Record<string, unknown>[];
  return {
    ok: {
      model: decodeURIComponent(model),
      system: system === undefined ? '' : textOf((system as { parts: unknown[] }).parts),
      roles: turns.map((c) => String(c.role ?? 'user')),
      question: textOf(turns.findLast((c) => (c.role ?? 'user') === 'user')?.parts),
    },
  };
}

function geminiResponse(conversation: Conversation): unknown {
  const [first, second] = answerText('google', conversation);
  const prompt = words(conversation.system) + conversation.roles.length;
  return {
    candidates: [{ content: { parts: [{ text: first }, { text: second }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: words(first + second), totalTokenCount: prompt + words(first + second) },
    modelVersion: conversation.model,
    responseId: requestId(),
  };
}

// --- The server -------------------------------------------------------------------------------------------

const CHECKS = { openai: checkOpenai, mistral: checkMistral, anthropic: checkAnthropic, google: checkGoogle };

function answer(provider: ModelProvider, conversation: Conversation): unknown {
  if (provider === 'anthropic') return anthropicMessage(conversation);
  if (provider === 'google') return geminiResponse(conversation);
  return chatCompletion(provider, conversation);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startModelStandIn(options: StandInOptions = {}): Promise<ModelStandIn> {
  const requests: RecordedRequest[] = [];
  const queue: StandInBehaviour[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw === '' ? undefined : raw;
      try {
        if (raw !== '') body = JSON.parse(raw);
      } catch {
        // not JSON: recorded as text, refused by the provider's check
      }
      const [, prefix = '', rest = '/'] = /^\/([^/?]*)(.*)$/.exec(req.url ?? '/') ?? [];
      const provider = (MODEL_PROVIDERS as readonly string[]).includes(prefix) ? (prefix as ModelProvider) : undefined;
      const method = req.method ?? 'GET';
      const path = provider ? rest || '/' : (req.url ?? '/');
      requests.push({ provider, method, path, headers: req.headers, body });

      const next = queue.shift();
      if (next && 'hang' in next) return;
      if (next) return send(res, next.status, next.body, next.headers);
      if (!provider) return send(res, 404, 'Not found');
      const checked = CHECKS[provider](method, path, req.headers, body, options.keys?.[provider]);
      if ('error' in checked) return send(res, checked.error.status, checked.error.body);
      send(res, 200, answer(provider, checked.ok));
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: (provider) => `${url}/${provider}`,
    requests,
    setNext: (behaviour) => void queue.push(behaviour),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
