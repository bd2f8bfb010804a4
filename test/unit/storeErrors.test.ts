import { Neo4jError } from 'neo4j-driver';
import { Conflict, Duplicate, duplicateAs, NotFound, publicError, storeErrorOf, Unavailable } from '../../src/db/storeErrors';

const neo4jError = (code: string, message = 'driver text the client must never see') =>
  new Neo4jError(message, code, '50N42', 'error: general processing exception', {} as never);

describe('store errors', () => {
  it('maps Neo4j codes (not message text) to store errors', () => {
    expect(storeErrorOf(neo4jError('Neo.ClientError.Schema.ConstraintValidationFailed'))).toBeInstanceOf(Duplicate);
    expect(storeErrorOf(neo4jError('ServiceUnavailable'))).toMatchObject({ reason: 'unreachable' });
    expect(storeErrorOf(neo4jError('SessionExpired'))).toMatchObject({ reason: 'unreachable' });
    expect(storeErrorOf(neo4jError('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration'), 1500)).toMatchObject({
      reason: 'timeout',
      timeoutMs: 1500,
    });
    // Neo4j 5's answer to a transaction that reaches its limit while it waits for a lock (a 503, not a 500).
    expect(storeErrorOf(neo4jError('Neo.ClientError.Transaction.LockClientStopped'), 2000)).toMatchObject({
      reason: 'timeout',
      timeoutMs: 2000,
    });
    expect(storeErrorOf(neo4jError('Neo.TransientError.Transaction.DeadlockDetected'))).toBeInstanceOf(Conflict);
    expect(storeErrorOf(neo4jError('Neo.ClientError.Statement.EntityNotFound'))).toBeInstanceOf(Conflict);
    expect(storeErrorOf(neo4jError('Neo.TransientError.General.MemoryPoolOutOfMemoryError'))).toMatchObject({ reason: 'busy' });
    // A message that looks like an outage is not read: without a known code it is a bug (500).
    expect(storeErrorOf(neo4jError('N/A', 'Connection acquisition timed out / ECONNREFUSED'))).toBeUndefined();
    expect(storeErrorOf(new Error('Failed to connect'))).toBeUndefined();
    expect(storeErrorOf(neo4jError('Neo.ClientError.Statement.SyntaxError'))).toBeUndefined();
  });

  it('maps store errors to the errors of docs/behaviour.md once: 409, 404, and 503 with a message that says what happened', () => {
    expect(publicError(new Duplicate('Tenant', 'acme'))).toMatchObject({
      status: 409,
      code: 'DUPLICATE_ENTITY',
      message: 'Tenant "acme" already exists.',
    });
    expect(publicError(neo4jError('Neo.ClientError.Schema.ConstraintValidationFailed'))).toMatchObject({
      status: 409,
      code: 'DUPLICATE_ENTITY',
    });
    expect(publicError(new NotFound('Project', 'p1'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Project "p1" not found.',
    });

    const unreachable = publicError(neo4jError('ServiceUnavailable'))!;
    expect(unreachable).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5 });
    expect(unreachable.message).toMatch(/unreachable/);

    const timeout = publicError(new Unavailable('timeout', 1500))!;
    expect(timeout).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(timeout.message).toMatch(/did not answer within 1500 ms/);

    // A deadlock that kept recurring until the retries ran out: not "unreachable"; nothing changed, retry at once.
    const deadlock = publicError(neo4jError('Neo.TransientError.Transaction.DeadlockDetected'))!;
    expect(deadlock).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
    expect(deadlock.message).toMatch(/conflicted with concurrent changes.*nothing was changed/);
    expect(deadlock.message).not.toMatch(/unreachable/);

    for (const e of [unreachable, timeout, deadlock]) expect(e.message).not.toMatch(/driver text/);
    expect(publicError(new Error('a bug'))).toBeUndefined();
  });

  it('lets a store name a unique violation and pass anything else through', () => {
    expect(() => duplicateAs('User', 'alice')(neo4jError('Neo.ClientError.Schema.ConstraintValidationFailed'))).toThrow(Duplicate);
    try {
      duplicateAs('User', 'alice')(new Duplicate());
    } catch (err) {
      expect(err).toMatchObject({ entity: 'User', key: 'alice' });
    }
    const other = neo4jError('Neo.ClientError.Statement.SyntaxError');
    expect(() => duplicateAs('User', 'alice')(other)).toThrow(other);
  });
});
