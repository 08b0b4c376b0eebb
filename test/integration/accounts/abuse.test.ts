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

describe('the account locked as a whole', () => {
  it(
    'still lets the owner in from an address of an earlier log-in, while a new address waits, alike for real and unknown accounts',
    async () => {
      const strict = await startTestHost({ LOGIN_ACCOUNT_MAX_FAILURES: '3' });
      try {
        const user = newUser();
        const ghost = `ghost_${Date.now().toString(36)}`;
        expect((await strict.request('POST', '/register', { json: user })).status).toBe(201);
        const attempt = (from: string, username: string, password: string) =>
          strict.request('POST', '/token', { from, json: { username, password } });
        const usual = await attempt('127.0.0.26', user.username, user.password);

        const spread = [];
        for (const from of ['127.0.0.27', '127.0.0.28', '127.0.0.29']) {
          spread.push((await attempt(from, user.username, 'wrong-password-6')).status);
          spread.push((await attempt(from, ghost, 'wrong-password-6')).status);
        }
        const fresh = await attempt('127.0.0.30', user.username, user.password);
        const freshForGhost = await attempt('127.0.0.30', ghost, user.password);
        const usualAgain = await attempt('127.0.0.26', user.username, user.password);
        const usualWrong = await attempt('127.0.0.26', user.username, 'wrong-password-6');
        const ghostFromUsual = await attempt('127.0.0.26', ghost, 'wrong-password-6');

        expect(usual.status).toBe(200);
        expect(spread).toEqual([401, 401, 401, 401, 401, 401]);
        expect(fresh.status).toBe(429);
        expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(fresh.headers.get('retry-after'))).toBeLessThanOrEqual(900);
        expect(comparableProblem(freshForGhost)).toEqual(comparableProblem(fresh));
        expect(usualAgain.status).toBe(200);
        // The usual address still has its own limit: a wrong password there is checked (401).
        expect(usualWrong.status).toBe(401);
        // An address is only known to the account it logged in to.
        expect(comparableProblem(ghostFromUsual)).toEqual(comparableProblem(fresh));
      } finally {
        await strict.close();
      }
    },
    TIMEOUT,
  );
});

describe('password checks per address (BCRYPT_MAX_PER_IP)', () => {
  let budgeted: TestHost;
  beforeAll(async () => {
    budgeted = await startTestHost({ BCRYPT_MAX_PER_IP: '8', BCRYPT_WINDOW_SECONDS: '600' });
  });
  afterAll(() => budgeted?.close());

  const loginAt = (from: string, username: string, password: string) =>
    budgeted.request('POST', '/token', { from, json: { username, password } });
  const ghosts = (count: number) =>
    Array.from({ length: count }, (_, i) => `ghost_${i}_${Date.now().toString(36)}`);

  it(
    'checks at most 8 of 20 parallel wrong logins for 20 unknown usernames from one address, the rest 429',
    async () => {
      const responses = await Promise.all(
        ghosts(20).map((username) => loginAt('127.0.0.20', username, 'wrong-password-5')),
      );
      const elsewhere = await loginAt('127.0.0.21', ghosts(1)[0] ?? '', 'wrong-password-5');

      const statuses = responses.map((response) => response.status);
      expect(count(statuses, 401)).toBe(8);
      expect(count(statuses, 429)).toBe(12);
      const refused = responses.find((response) => response.status === 429);
      expect(refused?.body.type).toBe('urn:tubesum:problem:too-many-password-checks');
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(500);
      expect(Number(refused?.headers.get('retry-after'))).toBeLessThanOrEqual(600);
      expect(elsewhere.status).toBe(401);
    },
    TIMEOUT,
  );

  it(
    'hashes at most 8 of 20 parallel registrations of a taken username from one address (409), the rest 429',
    async () => {
      const taken = newUser();
      const first = await budgeted.request('POST', '/register', {
        from: '127.0.0.22',
        json: taken,
      });

      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          budgeted.request('POST', '/register', {
            from: '127.0.0.23',
            json: newUser({ username: taken.username }),
          }),
        ),
      );

      const statuses = responses.map((response) => response.status);
      expect(first.status).toBe(201);
      expect(count(statuses, 409)).toBe(8);
      expect(count(statuses, 429)).toBe(12);
      const refused = responses.find((response) => response.status === 429);
      expect(refused?.body.type).toBe('urn:tubesum:problem:too-many-password-checks');
    },
    TIMEOUT,
  );

  it(
    'answers a real and an unknown account alike once the address has spent its checks',
    async () => {
      const real = newUser();
      expect(
        (await budgeted.request('POST', '/register', { from: '127.0.0.24', json: real })).status,
      ).toBe(201);
      const spent = await Promise.all(
        ghosts(8).map((username) => loginAt('127.0.0.25', username, 'wrong-password-4')),
      );

      const forReal = await loginAt('127.0.0.25', real.username, real.password);
      const forUnknown = await loginAt('127.0.0.25', ghosts(1)[0] ?? '', real.password);
      const elsewhere = await loginAt('127.0.0.24', real.username, real.password);

      expect(spent.map((response) => response.status)).toEqual(Array(8).fill(401));
      expect(forReal.status).toBe(429);
      expect(comparableProblem(forUnknown)).toEqual(comparableProblem(forReal));
      expect(elsewhere.status).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'keeps the lock-out exact: 30 parallel wrong guesses for one account are 5 checked, 25 refused',
    async () => {
      const victim = newUser();
      expect(
        (await budgeted.request('POST', '/register', { from: '127.0.0.31', json: victim })).status,
      ).toBe(201);

      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          loginAt('127.0.0.32', victim.username, `guess-${i}-x`),
        ),
      );
      const owner = await loginAt('127.0.0.33', victim.username, victim.password);

      const statuses = guesses.map((response) => response.status);
      expect(count(statuses, 401)).toBe(5);
      expect(count(statuses, 429)).toBe(25);
      expect(owner.status).toBe(200);
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
