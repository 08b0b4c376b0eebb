// The local host's signing secret: refused when weak, generated and kept when unset.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../lib/errors';
import { startTestHost } from '../../support/host';

const dataDir = mkdtempSync(join(tmpdir(), 'tubesum-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the local host', () => {
  it.each([
    ['shorter than 32 bytes', 'too-short-secret'],
    ['long but repetitive', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
  ])('refuses to start with a JWT_SECRET %s', async (_case, secret) => {
    await expect(startTestHost({ JWT_SECRET: secret })).rejects.toBeInstanceOf(ConfigError);
  });

  it('generates a secret in LOCAL_DATA_DIR when JWT_SECRET is unset, and keeps it across restarts', async () => {
    const first = await startTestHost({ JWT_SECRET: '', LOCAL_DATA_DIR: dataDir });
    const { token } = await first.registerAndLogin();
    const tableName = first.config.TABLE_NAME;
    await first.close();
    const secretFile = join(dataDir, 'jwt-secret');
    const secret = readFileSync(secretFile, 'utf8').trim();

    const second = await startTestHost({
      JWT_SECRET: '',
      LOCAL_DATA_DIR: dataDir,
      TABLE_NAME: tableName,
    });
    const stillValid = await second.request('POST', '/summarize', { token, json: {} });
    await second.close();

    expect(secret.length).toBeGreaterThanOrEqual(48);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(secret);
    // The token from before the restart still authenticates (anything but 401).
    expect(stillValid.status).not.toBe(401);
  });
});
