// The models every deployment knows: the offline summarizer, and the built-in Bedrock models
// with their ids, limits and list prices (operators add others with MODEL_CATALOG_JSON).
import type { BedrockModel, ExtractiveModel } from '../catalog';

export const EXTRACTIVE: ExtractiveModel = {
  kind: 'extractive',
  name: 'extractive',
  label: 'Offline extractive summarizer',
  modelId: 'extractive',
};

/**
 * Built-in Bedrock models. Ids are US cross-region inference profiles (`us.` prefix): on-demand
 * calls to the newer models must go through a profile, and one prefix keeps data in one geography.
 * Prices are on-demand list prices per 1k tokens as published by AWS and Anthropic (Claude geo
 * profiles carry a 10% premium over global ones). Nova output limits are the conservative 5k
 * tokens of the launch model cards. The Claude entries are the newest Claude models Anthropic
 * documents for Bedrock's Converse API (later ones are served on Bedrock's Messages-API
 * endpoint instead); operators can add others with MODEL_CATALOG_JSON.
 */
export const BUILT_IN_MODELS: readonly BedrockModel[] = [
  {
    kind: 'bedrock',
    name: 'nova-micro',
    label: 'Amazon Nova Micro',
    modelId: 'us.amazon.nova-micro-v1:0',
    contextTokens: 128_000,
    maxOutputTokens: 5_000,
    inputPricePer1k: 0.000035,
    outputPricePer1k: 0.00014,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'nova-lite',
    label: 'Amazon Nova Lite',
    modelId: 'us.amazon.nova-lite-v1:0',
    contextTokens: 300_000,
    maxOutputTokens: 5_000,
    inputPricePer1k: 0.00006,
    outputPricePer1k: 0.00024,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'nova-pro',
    label: 'Amazon Nova Pro',
    modelId: 'us.amazon.nova-pro-v1:0',
    contextTokens: 300_000,
    maxOutputTokens: 5_000,
    inputPricePer1k: 0.0008,
    outputPricePer1k: 0.0032,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'claude-haiku',
    label: 'Anthropic Claude Haiku 4.5',
    modelId: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    inputPricePer1k: 0.0011,
    outputPricePer1k: 0.0055,
    temperature: true,
    reasoningReserveTokens: 0,
  },
  {
    kind: 'bedrock',
    name: 'claude-sonnet',
    label: 'Anthropic Claude Sonnet 4.6',
    modelId: 'us.anthropic.claude-sonnet-4-6',
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    inputPricePer1k: 0.0033,
    outputPricePer1k: 0.0165,
    temperature: true,
    reasoningReserveTokens: 0,
  },
];
