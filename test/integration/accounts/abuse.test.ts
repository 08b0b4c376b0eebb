// Login lock-out and registration limits as an attacker meets them, over HTTP, from several
// loopback addresses (127.0.0.2, 127.0.0.3, ...: clients on different machines).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bcryptBudget } from '../../support/budget';
import { comparableProblem, newUser, startTestHost, type TestHost } from '../../support/host';

// At most LOGIN_MAX_FAILURES bcrypt compares, plus the registrations: the time that takes here.
const TIMEOUT = await bcryptBudget(30);

let host: TestHost;
beforeAll(async () => {
  // The defaults: 5 failures per address, 100 per account, 20 registrations per address.
  host = await startTestHost({ REGISTER_MAX_PER_IP: '20' });
});
afterAll(() => host?.close());

const login = (from: string, username: string, password: string) =>
  host.request('POST', '/token', { from, json: { username, password } });

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('login lock-out', () => {
  it(
    'checks at most 5 of 30 parallel wrong guesses from one address, and still lets the owner in from another',
    async () => {
      const victim = newUser();
      expect((await host.request('POST', '/register', { json: victim })).status).toBe(201);

      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login('127.0.0.2', victim.username, `guess-${i}-xyz`)),
      );
      const owner = await login('127.0.0.3', victim.username, victim.password);
      const rightFromAttacker = await login('127.0.0.2', victim.username, victim.password);

      const statuses = guesses.map((response) => response.status);
      expect(count(statuses, 401)).toBe(5);
      expect(count(statuses, 429)).toBe(25);
      expect(owner.status).toBe(200);
      expect(rightFromAttacker.status).toBe(429);
      expect(Number(rightFromAttacker.headers.get('retry-after'))).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'counts failures by username and by email of one account together',
    async () => {
      const user = newUser();
      expect((await host.request('POST', '/register', { json: user })).status).toBe(201);

      const failures = [];
      for (const identifier of [
        user.username,
        user.username,
        user.username,
        user.email,
        user.email,
      ]) {
        failures.push((await login('127.0.0.4', identifier, 'wrong-password-9')).status);
      }
      const locked = await login('127.0.0.4', user.email.toUpperCase(), user.password);
      const elsewhere = await login('127.0.0.5', user.username, user.password);

      expect(failures).toEqual([401, 401, 401, 401, 401]);
      expect(locked.status).toBe(429);
      expect(elsewhere.status).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'treats an unknown account exactly like a real one',
    async () => {
      const real = newUser();
      expect((await host.request('POST', '/register', { json: real })).status).toBe(201);
      const attempts = async (username: string) => {
        const statuses = [];
        let last = await login('127.0.0.6', username, 'wrong-password-8');
        statuses.push(last.status);
        for (let i = 0; i < 5; i++) {
          last = await login('127.0.0.6', username, 'wrong-password-8');
          statuses.push(last.status);
        }
        return { statuses, last };
      };

      const forReal = await attempts(real.username);
      const forGhost = await attempts(`ghost_${Date.now().toString(36)}`);

      expect(forReal.statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect(forGhost.statuses).toEqual(forReal.statuses);
      expect(comparableProblem(forGhost.last)).toEqual(comparableProblem(forReal.last));
    },
    TIMEOUT,
  );

  it(
    'locks the account as a whole after LOGIN_ACCOUNT_MAX_FAILURES from all addresses',
    async () => {
      const strict = await startTestHost({ LOGIN_ACCOUNT_MAX_FAILURES: '3' });
      try {
        const user = newUser();
        expect((await strict.request('POST', '/register', { json: user })).status).toBe(201);
        const wrong = (from: string) =>
          strict.request('POST', '/token', {
            from,
            json: { username: user.username, password: 'wrong-password-7' },
          });

        const spread = [
          await wrong('127.0.0.7'),
          await wrong('127.0.0.8'),
          await wrong('127.0.0.9'),
        ];
        const fresh = await strict.request('POST', '/token', {
          from: '127.0.0.10',
          json: { username: user.username, password: user.password },
        });

        expect(spread.map((response) => response.status)).toEqual([401, 401, 401]);
        expect(fresh.status).toBe(429);
      } finally {
        await strict.close();
      }
    },
    TIMEOUT,
  );
});

describe('registration limit per address', () => {
  it(
    'gives 21 parallel registrations from one address 20 x 201 and one 429 with Retry-After',
    async () => {
      const responses = await Promise.all(
        Array.from({ length: 21 }, () =>
          host.request('POST', '/register', { from: '127.0.0.11', json: newUser() }),
        ),
      );
      const another = await host.request('POST', '/register', {
        from: '127.0.0.12',
        json: newUser(),
      });

      const statuses = responses.map((response) => response.status);
      expect(count(statuses, 201)).toBe(20);
      expect(count(statuses, 429)).toBe(1);
      const refused = responses.find((response) => response.status === 429);
      expect(refused?.body.type).toBe('urn:tubesum:problem:too-many-registrations');
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(3_000);
      expect(another.status).toBe(201);
    },
    TIMEOUT,
  );

  it(
    'gives the slot back when a registration fails (a taken name does not count)',
    async () => {
      const taken = newUser();
      expect(
        (await host.request('POST', '/register', { from: '127.0.0.13', json: taken })).status,
      ).toBe(201);

      const conflicts = [];
      for (let i = 0; i < 25; i++) {
        const again = await host.request('POST', '/register', {
          from: '127.0.0.13',
          json: newUser({ username: taken.username }),
        });
        conflicts.push(again.status);
      }
      const fresh = await host.request('POST', '/register', {
        from: '127.0.0.13',
        json: newUser(),
      });

      expect(new Set(conflicts)).toEqual(new Set([409]));
      expect(fresh.status).toBe(201);
    },
    TIMEOUT,
  );
});
