// Which models `npm start` offers (infra/local/models.ts): without AWS credentials, none of the
// built-in Bedrock models the operator did not choose; what the operator chose stays, with a
// warning. (The process as a user runs it: test/integration/http/local-host-models.test.ts.)
import { describe, expect, it } from 'vitest';
import { awsCredentialsFound, localModels } from '../../../infra/local/models';
import { loadConfig } from '../../../lib/config';
import { ConfigError } from '../../../lib/errors';
import { catalogFromConfig } from '../../../lib/summaries/offer';

const BEDROCK = ['nova-micro', 'nova-lite', 'nova-pro', 'claude-haiku', 'claude-sonnet'];

/** What `localModels` serves and says for these settings and credentials. */
function offer(env: Record<string, string>, credentials: boolean) {
  const lines: string[] = [];
  const config = localModels(loadConfig(env), credentials, (line) => lines.push(line));
  return { names: catalogFromConfig(config).names, lines };
}

describe('the models npm start offers', () => {
  it('are the whole catalog, said in one line, when AWS credentials are found', async () => {
    const { names, lines } = offer({}, true);

    expect(names).toEqual(['extractive', ...BEDROCK]);
    expect(lines).toEqual([`models: extractive, ${BEDROCK.join(', ')}`]);
    // The tests' environment has keys (vitest.config.ts), so the SDK's chain finds them.
    expect(await awsCredentialsFound()).toBe(true);
  });

  it('leave out the built-in Bedrock models without credentials, saying how to add them', () => {
    const { names, lines } = offer({}, false);

    expect(names).toEqual(['extractive']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('models: extractive');
    expect(lines[1]).toMatch(/^Bedrock models .*nova-micro.* no AWS credentials.*aws sso login/);
  });

  it('keep the Bedrock models the operator chose, warning that they answer 503 until credentials come', () => {
    const chosenDefault = offer({ DEFAULT_MODEL: 'nova-micro' }, false);
    const allowed = offer({ ALLOWED_MODELS: 'extractive,nova-lite' }, false);
    const replaced = offer(
      {
        MODEL_CATALOG_JSON: JSON.stringify([
          {
            name: 'nova-pro',
            modelId: 'eu.amazon.nova-pro-v1:0',
            contextTokens: 300_000,
            maxOutputTokens: 5_000,
          },
        ]),
      },
      false,
    );

    expect(chosenDefault.names).toEqual(['extractive', 'nova-micro']);
    expect(allowed.names).toEqual(['extractive', 'nova-lite']);
    expect(replaced.names).toEqual(['extractive', 'nova-pro']);
    expect(allowed.lines[1]).toMatch(
      /^warning: no AWS credentials found: nova-lite answer 503 model-credentials-missing/,
    );
  });

  it('stop the start with the setting’s line when a model setting is invalid', () => {
    expect(() => offer({ MODEL_CATALOG_JSON: '[{' }, true)).toThrow(ConfigError);
    expect(() => offer({ MODEL_CATALOG_JSON: '[{' }, true)).toThrow(/MODEL_CATALOG_JSON/);
  });

  it('leave out a model whose window is too small, saying why, and answer for it', () => {
    const { names, lines } = offer(
      { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODELS: 'cramped@700,small@2048' },
      true,
    );

    expect(names).toEqual(['extractive', ...BEDROCK, 'small']);
    expect(lines[0]).toMatch(/^warning: OPENAI_MODELS: "cramped@700" is left out/);
  });
});
