/* global process */
// Refusals reach the caller as the SDK's ApiError, with the HTTP status and the server's error code.
import { ApiError, createMarketplaceClient, createResourceClient } from '@typed-platform/client';

const baseUrl = process.env.BASE_URL;
const failure = (promise) =>
  promise.then(
    () => ({ resolved: true }),
    (error) => ({ isApiError: error instanceof ApiError, name: error.name, status: error.status, code: error.code, message: error.message }),
  );

const unknownAgent = await failure(createMarketplaceClient({ baseUrl }).agents.get('00000000-0000-4000-8000-000000000000'));
const wrongKey = await failure(createResourceClient({ baseUrl, apiKey: 'rk_wrong' }).employees.list());

process.stdout.write(JSON.stringify({ node: process.version, unknownAgent, wrongKey }));
