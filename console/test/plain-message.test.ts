import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { ApiError, apiErrorOf, UnreachableError } from '../src/api/errors.ts';
import { plainMessage } from '../src/setup/plain-message.ts';

const answer = (status: number, requestId: string | null = 'req-7') =>
  ({ status, headers: new Headers(requestId ? { 'x-request-id': requestId } : {}) }) as Response;

const refusal = (code: string | null, error: string, status = 400) =>
  apiErrorOf(answer(status), { success: false, message: 'Conflict', error, ...(code ? { code } : {}) });

describe('the API refusal as the console tells it', () => {
  it('carries the envelope, the code and the request id', () => {
    const error = apiErrorOf(answer(409), {
      success: false,
      message: 'Conflict',
      error: 'User already registered',
      code: 'EMAIL_TAKEN',
    });
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.envelopeMessage, error.detail, error.code, error.requestId]).toEqual([
      409,
      'Conflict',
      'User already registered',
      'EMAIL_TAKEN',
      'req-7',
    ]);
  });

  it('reads the code, not the text: a reworded error keeps its sentence', () => {
    expect(plainMessage(refusal('METER_SN_TAKEN', 'Serial in use', 409))).toBe(
      'Another meter already has this serial number: each serial is unique.',
    );
    expect(plainMessage(refusal('EMAIL_TAKEN', 'User already registered', 401))).toBe(
      'An account with this e-mail address already exists. Sign in instead, or use another address.',
    );
  });

  it.each([
    ['BLOCK_NOT_EMPTY', 'This building block still has blocks or meters under it.'],
    ['BLOCK_PARENT_CYCLE', 'A building block cannot be moved under itself'],
    ['METER_HAS_READINGS', 'This meter has readings.'],
    ['ROLE_NOT_ALLOWED', 'Your role in this organization does not allow this change'],
    ['OWNER_ONLY', 'Only an owner may make, change or remove another owner.'],
    ['USER_NOT_FOUND', 'Nobody has signed up with this e-mail address yet.'],
    ['ALREADY_MEMBER', 'This person is already a member of the organization.'],
    ['PRIMARY_OWNER', 'The person who created the organization stays its owner'],
    ['ORGANIZATION_NOT_EMPTY', 'The organization still has building blocks, meters or tariffs.'],
    ['TRANSITION_CYCLE', 'A tariff cannot be followed by itself, nor by a tariff that leads back to it.'],
    ['TARIFF_HAS_SUCCESSOR', 'This tariff already has a transition to a successor.'],
    ['TRANSITION_APPLIED', 'This transition has already been applied'],
  ])('tells %s as a sentence', (code, sentence) => {
    expect(plainMessage(refusal(code, 'whatever the service said'))).toContain(sentence);
  });

  it('names what still uses a tariff', () => {
    expect(plainMessage(refusal('TARIFF_IN_USE', 'The tariff is still referenced by meter M-1', 409))).toBe(
      'This tariff is still used (meter M-1). Choose another tariff there first.',
    );
  });

  it('tells a field error with the field in words, and the database-error form by its Postgres code', () => {
    expect(plainMessage(refusal('VALIDATION_FAILED', 'tax_rate: Too big'))).toBe('Tax rate: too big.');
    expect(plainMessage(refusal('DATABASE_ERROR', JSON.stringify({ message: 'x', code: '23503' })))).toBe(
      'The chosen parent block does not exist in this organization.',
    );
  });

  it('shows the request id with an unexpected error, so that a report can be tied to the log', () => {
    expect(plainMessage(refusal('INTERNAL', 'Internal server error', 500))).toBe(
      'Something went wrong. (request id req-7)',
    );
    expect(plainMessage(apiErrorOf(answer(502), 'Bad gateway'))).toBe('Something went wrong. (request id req-7)');
    expect(plainMessage(refusal('DATABASE_UNAVAILABLE', 'The database is unavailable', 503))).toBe(
      'The service is busy or unavailable just now: try again in a moment. (request id req-7)',
    );
  });

  it('tells what is not an API refusal as it is', () => {
    expect(plainMessage(new UnreachableError())).toBe(
      'The service cannot be reached. Check the connection and try again.',
    );
  });
});

describe('the API refusals the console reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('tells a sign-up with a registered e-mail in words, with its request id kept', async () => {
    const credentials = { email: 'taken@example.com', password: 'long-enough-password' };
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: credentials });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: credentials });
    const error = apiErrorOf(
      { status: res.statusCode, headers: new Headers(res.headers as Record<string, string>) },
      res.json(),
    );
    expect([error.code, error.requestId]).toEqual(['EMAIL_TAKEN', res.headers['x-request-id']]);
    expect(plainMessage(error)).toBe(
      'An account with this e-mail address already exists. Sign in instead, or use another address.',
    );
  });
});
