// The clients a function that calls YouTube and the models needs (the summary worker, POST
// /ask), built from a Config and each loaded on first use: the operator's credentials, the
// YouTube client, the Bedrock and OpenAI-compatible clients. A run of the offline model never
// loads the model clients. (The summary pipeline and the offline summarizer are the worker's
// alone; /ask only chats.)

import type { OperatorCredentials } from '../aws/operator-credentials';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { once } from '../util/once';
import type { YouTubeClient } from '../youtube/client';
import type { BedrockModel, OpenAiModel } from './catalog';
import type { ChatModel } from './chat';

export interface ModelClients {
  /** The operator's credentials (read once per instance). */
  credentials: () => Promise<OperatorCredentials>;
  /** The YouTube client (with the proxy and key of the operator's credentials). */
  youtube: () => Promise<YouTubeClient>;
  /** One call at a time to a language model of the catalog. */
  chat(model: BedrockModel | OpenAiModel): Promise<ChatModel>;
}

/**
 * The clients of `config`, each made on first use and kept for the instance's life.
 * Credentials are read once per instance, when YouTube or a model server is first needed; an
 * unreadable secret throws ConfigError from the loaders, and the next call tries again.
 */
export function modelClientsFrom(config: Config, logger: Logger): ModelClients {
  const credentials = once(async () =>
    (await import('../aws/operator-credentials')).operatorCredentialsFrom(config),
  );
  const youtube = once<YouTubeClient>(async () =>
    (await import('../youtube/client')).youTubeClientFromConfig(config, await credentials(), {
      onWarning: (message, error) => logger.warn(message, { error: String(error) }),
    }),
  );
  const bedrock = once(async () =>
    (await import('../aws/bedrock')).createBedrockClientFromConfig(config),
  );
  const openai = once(async () =>
    (await import('./openai')).createOpenAiClientFromConfig(config, await credentials()),
  );
  const openAiOptions = async (model: OpenAiModel) => ({
    client: await openai(),
    model,
    maxAttempts: config.OPENAI_MAX_ATTEMPTS,
    logger,
  });
  const bedrockOptions = async (model: BedrockModel) => ({
    client: await bedrock(),
    model,
    logger,
  });
  return {
    credentials,
    youtube,
    async chat(model) {
      if (model.kind === 'openai') {
        return (await import('./openai')).createOpenAiChat(await openAiOptions(model));
      }
      return (await import('./bedrock')).createBedrockChat(await bedrockOptions(model));
    },
  };
}
