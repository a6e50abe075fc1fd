/**
 * The push webhook protocol on its own (server/docs-hosting/webhook.ts): GitHub's signature over the raw body,
 * and what each event asks for. The HTTP side (unknown repositories, builds queued) is in end-to-end.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/platform/errors.ts';
import { webhookAction, webhookSignatureMatches } from '../../server/docs-hosting/webhook.ts';
import { webhookSignature as sign } from '../helpers/hosting.ts';

describe('webhookSignatureMatches (X-Hub-Signature-256)', () => {
  const body = '{"ref":"refs/heads/main"}';

  it('accepts the HMAC-SHA256 of the exact raw body under the secret', () => {
    expect(webhookSignatureMatches('s3cret', body, sign('s3cret', body))).toBe(true);
  });

  it('refuses another secret, another body, a bare hex digest, a missing header, no secret', () => {
    expect(webhookSignatureMatches('s3cret', body, sign('other', body))).toBe(false);
    expect(webhookSignatureMatches('s3cret', `${body} `, sign('s3cret', body))).toBe(false);
    expect(webhookSignatureMatches('s3cret', body, sign('s3cret', body).slice('sha256='.length))).toBe(false);
    expect(webhookSignatureMatches('s3cret', body, undefined)).toBe(false);
    expect(webhookSignatureMatches(undefined, body, sign('', body))).toBe(false);
  });

  it('refuses a header of another length or with non-ASCII characters without throwing', () => {
    expect(webhookSignatureMatches('s3cret', body, 'sha256=é')).toBe(false);
    expect(webhookSignatureMatches('s3cret', body, `${sign('s3cret', body)}0`)).toBe(false);
  });
});

describe('webhookAction', () => {
  const invalid = (event: string, body: Record<string, unknown>) => {
    try {
      webhookAction(event, body);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).details;
    }
    throw new Error('expected a VALIDATION_ERROR');
  };

  it('push publishes the full ref of a branch or a tag', () => {
    expect(webhookAction('push', { ref: 'refs/heads/main', after: 'a'.repeat(40) })).toEqual({ publish: 'refs/heads/main' });
    expect(webhookAction('push', { ref: 'refs/tags/v1' })).toEqual({ publish: 'refs/tags/v1' });
  });

  it('push of a deleted branch forgets it after a fetch (deleted: true, or an all-zero after)', () => {
    expect(webhookAction('push', { ref: 'refs/heads/old', deleted: true })).toEqual({ forget: 'refs/heads/old', sync: true });
    expect(webhookAction('push', { ref: 'refs/heads/old', after: '0'.repeat(40) })).toEqual({ forget: 'refs/heads/old', sync: true });
  });

  it('push of anything but a branch or tag ref is refused, naming `ref`', () => {
    expect(invalid('push', { ref: 'main' })).toEqual({ ref: expect.any(String) });
    expect(invalid('push', { ref: 'refs/notes/x' })).toEqual({ ref: expect.any(String) });
    expect(invalid('push', {})).toEqual({ ref: expect.any(String) });
  });

  it('pull_request publishes refs/pull/N/head while open, forgets it once closed, ignores other actions', () => {
    for (const action of ['opened', 'synchronize', 'reopened', 'edited']) {
      expect(webhookAction('pull_request', { number: 7, action })).toEqual({ publish: 'refs/pull/7/head' });
    }
    expect(webhookAction('pull_request', { number: 7, action: 'closed' })).toEqual({ forget: 'refs/pull/7/head', sync: false });
    expect(webhookAction('pull_request', { number: 7, action: 'labeled' })).toEqual({ nothing: true });
    expect(invalid('pull_request', { number: 0, action: 'opened' })).toEqual({ number: expect.any(String) });
    expect(invalid('pull_request', { number: '7x', action: 'opened' })).toEqual({ number: expect.any(String) });
  });

  it('ping asks for nothing; other events are refused, naming X-GitHub-Event', () => {
    expect(webhookAction('ping', {})).toEqual({ nothing: true });
    expect(invalid('issues', {})).toEqual({ 'X-GitHub-Event': expect.any(String) });
  });
});
