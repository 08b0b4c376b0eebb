import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config';
import { ConfigError, type HttpError, ValidationError } from '../../../lib/errors';
import { estimateCostUsd, resolveModel, UnknownModelError } from '../../../lib/models/catalog';
import { BUILT_IN_MODELS } from '../../../lib/models/catalog/built-in';
import { buildCatalog, catalogFromConfig } from '../../../lib/summaries/offer';

describe('buildCatalog', () => {
  it('offers extractive and every built-in model when nothing is restricted', () => {
    const catalog = buildCatalog();

    expect(catalog.names).toEqual([
      'extractive',
      'nova-micro',
      'nova-lite',
      'nova-pro',
      'claude-haiku',
      'claude-sonnet',
    ]);
    expect(resolveModel(catalog, 'extractive')).toMatchObject({
      kind: 'extractive',
      modelId: 'extractive',
    });
  });

  it('maps built-in names to cross-region inference profiles with sane limits', () => {
    for (const model of BUILT_IN_MODELS) {
      expect(model.modelId).toMatch(/^us\.(amazon|anthropic)\./);
      expect(model.maxOutputTokens).toBeLessThan(model.contextTokens);
      expect(model.inputPricePer1k).toBeGreaterThan(0);
      expect(model.outputPricePer1k).toBeGreaterThan(model.inputPricePer1k);
    }
  });

  it('restricts the offer to ALLOWED_MODELS, in catalog order', () => {
    const catalog = buildCatalog({ allowed: ['nova-pro', 'Extractive'] });

    expect(catalog.names).toEqual(['extractive', 'nova-pro']);
    expect(() => resolveModel(catalog, 'nova-micro')).toThrow(ValidationError);
  });

  it('rejects an allow-list naming a model the catalog does not have', () => {
    expect(() => buildCatalog({ allowed: ['nova-micro', 'gpt-9'] })).toThrow(
      /ALLOWED_MODELS.*gpt-9/,
    );
  });

  it('adds operator entries from MODEL_CATALOG_JSON and lets them replace built-ins', () => {
    const extraJson = JSON.stringify([
      {
        name: 'nova-micro',
        modelId: 'eu.amazon.nova-micro-v1:0',
        contextTokens: 128000,
        maxOutputTokens: 5000,
      },
      {
        name: 'tiny',
        label: 'Tiny test model',
        modelId: 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc',
        contextTokens: 8000,
        maxOutputTokens: 1000,
        inputPricePer1k: 0.001,
        outputPricePer1k: 0.002,
        temperature: false,
        requestFields: { thinking: { type: 'disabled' } },
      },
    ]);

    const catalog = buildCatalog({ extraJson });

    expect(resolveModel(catalog, 'nova-micro')).toMatchObject({
      modelId: 'eu.amazon.nova-micro-v1:0',
      temperature: true,
      reasoningReserveTokens: 0,
    });
    expect(resolveModel(catalog, 'tiny')).toMatchObject({
      kind: 'bedrock',
      label: 'Tiny test model',
      contextTokens: 8000,
      temperature: false,
    });
    expect(catalog.names.at(-1)).toBe('tiny');
  });

  it('names MODEL_CATALOG_JSON when it is not JSON', () => {
    expect(() => buildCatalog({ extraJson: '[{name: nova}' })).toThrow(ConfigError);
    expect(() => buildCatalog({ extraJson: '[{name: nova}' })).toThrow(
      /MODEL_CATALOG_JSON is not valid JSON/,
    );
  });

  it('names MODEL_CATALOG_JSON and the bad field when an entry is invalid', () => {
    const extraJson = JSON.stringify([
      { name: 'big', modelId: 'x.y', contextTokens: 4000, maxOutputTokens: 8000 },
    ]);

    expect(() => buildCatalog({ extraJson })).toThrow(
      /MODEL_CATALOG_JSON\n.*\n {2}→ at \[0\]\.maxOutputTokens/,
    );
  });

  it('refuses to redefine extractive or accept unknown fields', () => {
    const redefine = JSON.stringify([
      { name: 'extractive', modelId: 'x', contextTokens: 8000, maxOutputTokens: 100 },
    ]);
    const unknownField = JSON.stringify([
      { name: 'm', modelId: 'x', contextTokens: 8000, maxOutputTokens: 100, price: 1 },
    ]);

    expect(() => buildCatalog({ extraJson: redefine })).toThrow(/extractive/);
    expect(() => buildCatalog({ extraJson: unknownField })).toThrow(/MODEL_CATALOG_JSON/);
  });
});

describe('models too small to summarise', () => {
  it('are left out, each with a line naming its variable, when their window cannot make the shortest summary', () => {
    const extraJson = JSON.stringify([
      { name: 'cramped', modelId: 'x.y', contextTokens: 1_200, maxOutputTokens: 300 },
    ]);

    const fromJson = buildCatalog({ extraJson });
    const fromOpenAi = buildCatalog({
      openai: { models: ['tiny@1024', 'tinier@700', 'llama3.2'], contextTokens: 4_096 },
    });

    expect(fromJson.names).not.toContain('cramped');
    expect(fromJson.names).toContain('nova-micro');
    expect(fromJson.leftOut.get('cramped')).toMatch(
      /^MODEL_CATALOG_JSON: "cramped" is left out: it cannot make a summary of 25 words/,
    );
    expect(fromOpenAi.names).toContain('llama3.2');
    expect([...fromOpenAi.leftOut.keys()]).toEqual(['tiny', 'tinier']);
    expect(fromOpenAi.leftOut.get('tinier')).toMatch(
      /^OPENAI_MODELS: "tinier@700" is left out: .* give it a window of at least \d+ tokens$/,
    );
  });

  it('names the smallest window that works, and that window works', () => {
    const catalog = buildCatalog({ openai: { models: ['tiny@700'], contextTokens: 4_096 } });
    const needed = Number(/at least (\d+) tokens/.exec(catalog.leftOut.get('tiny') ?? '')?.[1]);

    const at = (context: number) =>
      buildCatalog({ openai: { models: [`tiny@${context}`], contextTokens: 4_096 } });

    expect(needed).toBeGreaterThan(700);
    expect(needed).toBeLessThanOrEqual(2_048);
    expect(at(needed).names).toContain('tiny');
    expect(at(needed - 1).leftOut.has('tiny')).toBe(true);
  });

  it('answers a request for one with 503 server-misconfigured, listing the usable models', () => {
    const catalog = buildCatalog({ openai: { models: ['tiny@700'], contextTokens: 4_096 } });

    const error = (() => {
      try {
        resolveModel(catalog, 'tiny');
      } catch (thrown) {
        return thrown as HttpError;
      }
    })();

    expect(error).toMatchObject({ status: 503, type: 'server-misconfigured', expose: true });
    expect(error?.extensions.allowed_models).toEqual(catalog.names);
    expect(() => resolveModel(catalog, 'other')).toThrow(UnknownModelError);
  });
});

describe('resolveModel', () => {
  it('resolves a name written exactly as listed, and refuses other spellings, saying which', () => {
    const catalog = buildCatalog();

    expect(resolveModel(catalog, 'nova-micro')).toMatchObject({
      modelId: 'us.amazon.nova-micro-v1:0',
    });
    for (const spelling of ['Nova-Micro', ' nova-micro ', 'NOVA-MICRO']) {
      expect(() => resolveModel(catalog, spelling)).toThrow(/write it as listed, "nova-micro"/);
    }
  });

  it('throws a 422 listing the allowed models for an unknown name', () => {
    const catalog = buildCatalog({ allowed: ['extractive', 'nova-micro'] });

    let thrown: unknown;
    try {
      resolveModel(catalog, 'gpt-4');
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ValidationError);
    const error = thrown as HttpError;
    expect(error.status).toBe(422);
    expect(error.type).toBe('validation-error');
    expect(error.extensions.allowed_models).toEqual(['extractive', 'nova-micro']);
    expect(error.extensions.errors).toEqual([
      {
        field: 'used_model',
        message: 'Unknown model "gpt-4". Allowed: extractive, nova-micro.',
      },
    ]);
  });
});

describe('catalogFromConfig', () => {
  it('builds the catalog from ALLOWED_MODELS and MODEL_CATALOG_JSON', () => {
    const config = loadConfig({
      ALLOWED_MODELS: 'extractive, nova-lite',
      DEFAULT_MODEL: 'nova-lite',
    });

    expect(catalogFromConfig(config).names).toEqual(['extractive', 'nova-lite']);
  });

  it('fails fast naming DEFAULT_MODEL when the default is not offered', () => {
    const config = loadConfig({ ALLOWED_MODELS: 'nova-lite' });

    expect(() => catalogFromConfig(config)).toThrow(/DEFAULT_MODEL "extractive" is not offered/);
  });
});

describe('estimateCostUsd', () => {
  it('prices reported tokens at the per-1k rates and extractive at zero', () => {
    const catalog = buildCatalog();

    expect(estimateCostUsd(resolveModel(catalog, 'nova-pro'), 10_000, 1_000)).toBeCloseTo(
      0.0112,
      10,
    );
    expect(estimateCostUsd(resolveModel(catalog, 'extractive'), null, null)).toBe(0);
  });
});
