import { describe, expect, it } from 'vitest';
import { describeDatabaseUrl, isDatabaseUnavailable } from '../../src/db/unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('recognises a database that refuses, restarts, hangs or cut the connection', () => {
    const cases: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('the database system is shutting down'), { code: '57P03' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'connect failed'),
      new Error('wrapped', { cause: Object.assign(new Error('y'), { code: '57P01' }) }),
    ];
    for (const err of cases) expect(isDatabaseUnavailable(err), String(err)).toBe(true);
  });

  it('leaves bugs and bad data alone', () => {
    const cases: unknown[] = [
      new TypeError("Cannot read properties of undefined (reading 'x')"),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }),
      Object.assign(new Error('password authentication failed'), { code: '28P01' }),
      Object.assign(new Error('no such file'), { code: 'ENOENT' }),
      null,
      'ECONNREFUSED',
    ];
    for (const err of cases) expect(isDatabaseUnavailable(err), String(err)).toBe(false);
  });
});

describe('describeDatabaseUrl', () => {
  it('names host, port and database, never the user or password', () => {
    const d = describeDatabaseUrl('postgres://svc:s3cret@db.internal:6543/verify?sslmode=require');
    expect(d).toBe('db.internal:6543/verify');
    expect(describeDatabaseUrl('postgresql://u:p@10.0.0.5/app')).toBe('10.0.0.5:5432/app');
    expect(describeDatabaseUrl('not a url')).not.toContain('not a url');
  });
});
