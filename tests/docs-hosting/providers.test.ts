/**
 * Model providers for the docs agent (server/hosting/providers.ts), against the local stand-in of their HTTP APIs
 * (tests/helpers/model-stand-in.ts), which refuses what the real APIs refuse: per provider, the request that
 * arrived (path, auth, body, where the system prompt goes, history order, model, token limit), the answer that
 * came back, and how each failure is classified, never with the API key in the message.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { complete, DEFAULT_MODELS, ProviderError, type ChatTurn, type CompletionRequest, type ModelProvider } from '../../server/docs-hosting/chat/providers.ts';
import { startModelStandIn, type ModelStandIn, type StandInBehaviour } from '../helpers/model-stand-in.ts';

const KEYS: Record<ModelProvider, string> = {
  openai: 'sk-proj-StandInOpenAiKey0123456789',
  anthropic: 'sk-ant-api03-StandInAnthropicKey0123456789',
  google: 'AIzaSyStandInGoogleKey0123456789',
  mistral: 'StandInMistralKey0123456789',
};
const SYSTEM =
  'You answer questions about the Widgets documentation only from these pages. [Quickstart] Install with npm install widgets. [Configuration] Put widgets.config.json at the root.';
const HISTORY: ChatTurn[] = [
  { role: 'user', content: 'How do I install Widgets?' },
  { role: 'assistant', content: 'Run npm install widgets.' },
  { role: 'user', content: 'And where does the configuration go?' },
];

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn({ keys: KEYS });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.length = 0;
});

const ask = (provider: ModelProvider, overrides: Partial<CompletionRequest> = {}) =>
  complete({ provider, apiKey: KEYS[provider], baseUrl: standIn.baseUrl(provider), system: SYSTEM, messages: HISTORY, ...overrides });

/** The ProviderError a request ends in; whatever it is, its message must not contain a key. */
async function failure(provider: ModelProvider, overrides: Partial<CompletionRequest> = {}): Promise<ProviderError> {
  const error: unknown = await ask(provider, overrides).then(
    () => new Error('expected a ProviderError, got an answer'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  const { message } = error as ProviderError;
  for (const key of [...Object.values(KEYS), overrides.apiKey ?? '']) if (key) expect(message).not.toContain(key);
  return error as ProviderError;
}

const expectedText = (provider: ModelProvider, model: string, turns = 'user > assistant > user', system = SYSTEM) =>
  `Answer (${provider}/${model}): And where does the configuration go?\nSources seen: ${system.slice(0, 60)}\nTurns: ${turns}`;

/** Each provider's real error bodies, for canned failures. */
const BODIES: Record<ModelProvider, { rateLimited: unknown; serverError: unknown; notFound: { status: number; body: unknown; message: string }; malformed: unknown }> = {
  openai: {
    rateLimited: { error: { message: 'Rate limit reached for gpt-6-luna on requests per min (RPM): Limit 3, Used 3.', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
    serverError: { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } },
    notFound: {
      status: 404,
      body: { error: { message: 'The model `gpt-nope` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } },
      message: 'The model `gpt-nope` does not exist or you do not have access to it.',
    },
    malformed: { id: 'chatcmpl-1', object: 'chat.completion', choices: [] },
  },
  anthropic: {
    rateLimited: { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization.' } },
    serverError: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
    notFound: { status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } }, message: 'model: claude-nope' },
    malformed: { id: 'msg_1', type: 'message', content: 'Configuration goes at the root.' },
  },
  google: {
    rateLimited: { error: { code: 429, message: 'You exceeded your current quota.', status: 'RESOURCE_EXHAUSTED' } },
    serverError: { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } },
    notFound: {
      status: 404,
      body: { error: { code: 404, message: 'models/gemini-nope is not found for API version v1beta, or is not supported for generateContent.', status: 'NOT_FOUND' } },
      message: 'models/gemini-nope is not found for API version v1beta',
    },
    malformed: { candidates: [{ content: { parts: 'Configuration goes at the root.' } }] },
  },
  mistral: {
    rateLimited: { message: 'Requests rate limit exceeded', request_id: 'abc' },
    serverError: { object: 'error', message: 'Service unavailable.', type: 'internal_server_error', param: null, code: '3000' },
    notFound: { status: 400, body: { object: 'error', message: 'Invalid model: mistral-nope', type: 'invalid_model', param: null, code: '1500' }, message: 'Invalid model: mistral-nope' },
    malformed: { id: 'cmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant' } }] },
  },
};

/** What every provider shares: how failures are classified. */
function failures(provider: ModelProvider, authStatus: number) {
  it(`a wrong key is an 'auth' error (HTTP ${authStatus}), with nothing of the key in the message`, async () => {
    const error = await failure(provider, { apiKey: 'sk-Wrong-Key-abcdefgh' });
    expect(error).toMatchObject({ name: 'ProviderError', provider, kind: 'auth', status: authStatus });
    // OpenAI's 401 echoes the wrong key masked (its first and last characters): not repeated either.
    expect(error.message).not.toMatch(/Wrong|efgh/);
    expect(standIn.requests).toHaveLength(1);
  });

  it("429 with Retry-After is 'rate-limited' with retryAfterSeconds", async () => {
    standIn.setNext({ status: 429, headers: { 'retry-after': '17' }, body: BODIES[provider].rateLimited });
    const error = await failure(provider);
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterSeconds: 17 });
    expect(error.message).toContain('retry after 17 s');
  });

  it("500 is 'unavailable'", async () => {
    standIn.setNext({ status: 500, body: BODIES[provider].serverError });
    expect(await failure(provider)).toMatchObject({ kind: 'unavailable', status: 500 });
  });

  it("a provider that does not answer within timeoutMs is 'unavailable'", async () => {
    standIn.setNext({ hang: true });
    const started = performance.now();
    const error = await failure(provider, { timeoutMs: 200 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(error).toMatchObject({ kind: 'unavailable', status: undefined });
    expect(error.message).toContain('within 200 ms');
    expect(standIn.requests).toHaveLength(1);
  });

  it.each<[string, StandInBehaviour]>([
    ['JSON without the answer', { status: 200, body: BODIES[provider].malformed }],
    ['not JSON', { status: 200, body: '<html>Service Unavailable</html>' }],
  ])("a 200 whose body is %s is a 'bad-response'", async (_label, behaviour) => {
    standIn.setNext(behaviour);
    const error = await failure(provider);
    expect(error).toMatchObject({ kind: 'bad-response', status: 200 });
  });

  it("another 4xx is a 'bad-response' with the status and the provider's message", async () => {
    const { status, body, message } = BODIES[provider].notFound;
    standIn.setNext({ status, body });
    const error = await failure(provider, { model: 'nope' });
    expect(error).toMatchObject({ kind: 'bad-response', status });
    expect(error.message).toContain(message);
  });
}

describe('openai', () => {
  it('posts to /v1/chat/completions with Bearer auth: system prompt first, then the history in order, the default model, max_completion_tokens', async () => {
    expect(await ask('openai')).toEqual({ text: expectedText('openai', DEFAULT_MODELS.openai), model: DEFAULT_MODELS.openai });
    expect(standIn.requests).toHaveLength(1);
    const [request] = standIn.requests;
    expect(request).toMatchObject({ provider: 'openai', method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers).toMatchObject({ authorization: `Bearer ${KEYS.openai}`, 'content-type': 'application/json' });
    expect(request!.body).toEqual({
      model: 'gpt-6-luna',
      messages: [{ role: 'system', content: SYSTEM }, ...HISTORY],
      max_completion_tokens: 1024,
    });
  });

  it('sends the model and maxTokens asked for', async () => {
    expect(await ask('openai', { model: 'gpt-6-terra', maxTokens: 300 })).toEqual({ text: expectedText('openai', 'gpt-6-terra'), model: 'gpt-6-terra' });
    expect(standIn.requests[0]!.body).toMatchObject({ model: 'gpt-6-terra', max_completion_tokens: 300 });
  });

  it('reports the model the provider says answered (an alias resolves to a dated snapshot)', async () => {
    standIn.setNext({
      status: 200,
      body: { object: 'chat.completion', model: 'gpt-6-luna-2026-09-22', choices: [{ index: 0, message: { role: 'assistant', content: 'At the root.' }, finish_reason: 'stop' }] },
    });
    expect(await ask('openai')).toEqual({ text: 'At the root.', model: 'gpt-6-luna-2026-09-22' });
  });

  it("an empty answer (the token limit spent on reasoning) is a 'bad-response' naming the finish reason", async () => {
    standIn.setNext({ status: 200, body: { model: 'gpt-6-luna', choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'length' }] } });
    const error = await failure('openai');
    expect(error).toMatchObject({ kind: 'bad-response', status: 200 });
    expect(error.message).toContain('(length)');
  });

  it('the stand-in refuses max_tokens as current OpenAI models do', async () => {
    const response = await fetch(`${standIn.baseUrl('openai')}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.openai}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-6-luna', messages: HISTORY, max_tokens: 10 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'max_tokens', code: 'unsupported_parameter' } });
  });

  failures('openai', 401);
});

describe('anthropic', () => {
  it('posts to /v1/messages with x-api-key and anthropic-version: system as a top-level field, the history in order, max_tokens', async () => {
    // The stand-in answers in two text blocks: the text is their concatenation.
    expect(await ask('anthropic')).toEqual({ text: expectedText('anthropic', DEFAULT_MODELS.anthropic), model: DEFAULT_MODELS.anthropic });
    const [request] = standIn.requests;
    expect(request).toMatchObject({ provider: 'anthropic', method: 'POST', path: '/v1/messages' });
    expect(request!.headers).toMatchObject({ 'x-api-key': KEYS.anthropic, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.body).toEqual({ model: 'claude-haiku-4-5', max_tokens: 1024, system: SYSTEM, messages: HISTORY });
  });

  it('sends the model and maxTokens asked for, and no system field for an empty system prompt', async () => {
    expect(await ask('anthropic', { model: 'claude-sonnet-5', maxTokens: 64, system: '' })).toEqual({
      text: expectedText('anthropic', 'claude-sonnet-5', undefined, ''),
      model: 'claude-sonnet-5',
    });
    expect(standIn.requests[0]!.body).toEqual({ model: 'claude-sonnet-5', max_tokens: 64, messages: HISTORY });
  });

  it("529 overloaded is 'unavailable'", async () => {
    standIn.setNext({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const error = await failure('anthropic');
    expect(error).toMatchObject({ kind: 'unavailable', status: 529 });
    expect(error.message).toContain('Overloaded');
  });

  failures('anthropic', 401);
});

describe('google', () => {
  it('posts to /v1beta/models/{model}:generateContent with x-goog-api-key: systemInstruction, the history as user/model contents, maxOutputTokens', async () => {
    // Gemini calls the assistant 'model'; the stand-in answers in two parts.
    expect(await ask('google')).toEqual({ text: expectedText('google', DEFAULT_MODELS.google, 'user > model > user'), model: DEFAULT_MODELS.google });
    const [request] = standIn.requests;
    expect(request).toMatchObject({ provider: 'google', method: 'POST', path: '/v1beta/models/gemini-3.5-flash-lite:generateContent' });
    expect(request!.headers).toMatchObject({ 'x-goog-api-key': KEYS.google, 'content-type': 'application/json' });
    expect(request!.body).toEqual({
      systemInstruction: { parts: [{ text: SYSTEM }] },
      contents: [
        { role: 'user', parts: [{ text: 'How do I install Widgets?' }] },
        { role: 'model', parts: [{ text: 'Run npm install widgets.' }] },
        { role: 'user', parts: [{ text: 'And where does the configuration go?' }] },
      ],
      generationConfig: { maxOutputTokens: 1024 },
    });
  });

  it('puts the model asked for in the path (a models/ resource name too) and sends maxTokens', async () => {
    expect(await ask('google', { model: 'models/gemini-3.8-flash', maxTokens: 2048 })).toEqual({
      text: expectedText('google', 'gemini-3.8-flash', 'user > model > user'),
      model: 'gemini-3.8-flash',
    });
    expect(standIn.requests[0]).toMatchObject({ path: '/v1beta/models/gemini-3.8-flash:generateContent', body: { generationConfig: { maxOutputTokens: 2048 } } });
  });

  it('takes the retry delay from google.rpc.RetryInfo when there is no Retry-After header', async () => {
    standIn.setNext({
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '42s' }],
        },
      },
    });
    expect(await failure('google')).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 42 });
  });

  it('leaves thought summaries (thought: true parts) out of the text', async () => {
    standIn.setNext({
      status: 200,
      body: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'The reader wants the config path.', thought: true }, { text: 'At the root: widgets.config.json.' }] }, finishReason: 'STOP' }],
        modelVersion: 'gemini-3.5-flash-lite-001',
      },
    });
    expect(await ask('google')).toEqual({ text: 'At the root: widgets.config.json.', model: 'gemini-3.5-flash-lite-001' });
  });

  it("a prompt blocked by safety filters (no candidates) is a 'bad-response' naming the block", async () => {
    standIn.setNext({ status: 200, body: { promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'gemini-3.5-flash-lite' } });
    const error = await failure('google');
    expect(error).toMatchObject({ kind: 'bad-response', status: 200 });
    expect(error.message).toContain('blocked: SAFETY');
  });

  failures('google', 400);
});

describe('mistral', () => {
  it('posts to /v1/chat/completions with Bearer auth: system prompt first, then the history in order, the default model, max_tokens', async () => {
    expect(await ask('mistral')).toEqual({ text: expectedText('mistral', DEFAULT_MODELS.mistral), model: DEFAULT_MODELS.mistral });
    const [request] = standIn.requests;
    expect(request).toMatchObject({ provider: 'mistral', method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers).toMatchObject({ authorization: `Bearer ${KEYS.mistral}`, 'content-type': 'application/json' });
    expect(request!.body).toEqual({
      model: 'mistral-small-latest',
      messages: [{ role: 'system', content: SYSTEM }, ...HISTORY],
      max_tokens: 1024,
    });
  });

  it('sends the model and maxTokens asked for', async () => {
    expect(await ask('mistral', { model: 'mistral-medium-latest', maxTokens: 512 })).toEqual({
      text: expectedText('mistral', 'mistral-medium-latest'),
      model: 'mistral-medium-latest',
    });
    expect(standIn.requests[0]!.body).toMatchObject({ model: 'mistral-medium-latest', max_tokens: 512 });
  });

  it('the stand-in refuses max_completion_tokens as Mistral does (422 extra_forbidden)', async () => {
    const response = await fetch(`${standIn.baseUrl('mistral')}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.mistral}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mistral-small-latest', messages: HISTORY, max_completion_tokens: 10 }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'max_completion_tokens'] }] } });
  });

  failures('mistral', 401);
});

describe('any provider', () => {
  it("a provider that cannot be reached is 'unavailable'", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const error = await failure('anthropic', { baseUrl: `http://127.0.0.1:${port}` });
    expect(error).toMatchObject({ kind: 'unavailable', status: undefined });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it("the caller's own abort rejects with its reason, not a ProviderError", async () => {
    standIn.setNext({ hang: true });
    const controller = new AbortController();
    const pending = ask('openai', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('reader left')), 50);
    await expect(pending).rejects.toThrow('reader left');
  });

  it('a provider message that echoes the key is passed on redacted', async () => {
    standIn.setNext({ status: 400, body: { error: { message: `Malformed header: Bearer ${KEYS.openai}`, type: 'invalid_request_error', param: null, code: null } } });
    const error = await failure('openai');
    expect(error).toMatchObject({ kind: 'bad-response', status: 400 });
    expect(error.message).toContain('Malformed header: Bearer [redacted]');
  });

  it("a redirect is not followed (it would carry the key elsewhere): a 'bad-response'", async () => {
    standIn.setNext({ status: 307, headers: { location: 'http://127.0.0.1:9/steal' }, body: '' });
    expect(await failure('google')).toMatchObject({ kind: 'bad-response', status: 307 });
    expect(standIn.requests).toHaveLength(1);
  });

  it('refuses a conversation that does not end with the user (a caller bug, not a provider error)', async () => {
    await expect(ask('openai', { messages: HISTORY.slice(0, 2) })).rejects.toThrow(TypeError);
    await expect(ask('openai', { messages: [] })).rejects.toThrow("messages must end with the user's question");
    expect(standIn.requests).toHaveLength(0);
  });
});
