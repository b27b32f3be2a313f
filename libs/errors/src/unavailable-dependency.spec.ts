import { describe, expect, it } from 'vitest';
import { toAppException } from './http-exception.filter';
import { isUnavailableDependency } from './unavailable-dependency';

const named = (name: string, message = '') => Object.assign(new Error(message), { name });
const coded = (code: string, message = '') => Object.assign(new Error(message), { code });

describe('unavailable PostgreSQL or Redis', () => {
  it.each([
    ['ioredis giving up on a command', named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 1).')],
    ['a closed ioredis client', new Error('Connection is closed.')],
    ['a refused connection', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['PostgreSQL shutting down', coded('57P01', 'terminating connection due to administrator command')],
    ['too many PostgreSQL connections', coded('53300', 'sorry, too many clients already')],
    ['a dropped PostgreSQL connection', new Error('Connection terminated unexpectedly')],
    ['the pool unable to connect in time', new Error('timeout exceeded when trying to connect')],
    ['a wrapped driver error', Object.assign(new Error('query failed'), { driverError: coded('57P03') })],
  ])('recognises %s, and answers it 503 5903', (_, error) => {
    expect(isUnavailableDependency(error)).toBe(true);
    expect(toAppException(error)?.toBody()).toMatchObject({ statusCode: 503, error_code: 5903 });
  });

  it.each([
    ['a syntax error', coded('42601', 'syntax error at or near "SELEC"')],
    ['a unique violation', coded('23505', 'duplicate key value')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'Connection is closed.'],
  ])('leaves %s to be answered 500 5999', (_, error) => {
    expect(isUnavailableDependency(error)).toBe(false);
    expect(toAppException(error)).toBeUndefined();
  });
});
