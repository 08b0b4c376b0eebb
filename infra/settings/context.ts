// The CDK context keys the stack reads, and which function variable each sets.
/** Context keys and what they set (docs/aws.md's table lists the same; test/unit/readme.test.ts checks it). */
export const CONTEXT = {
  stackName: 'stackName',
  corsOrigins: 'corsOrigins',
  mcpAllowedOrigins: 'mcpAllowedOrigins',
  throttleRateLimit: 'throttleRateLimit',
  throttleBurstLimit: 'throttleBurstLimit',
  logRetentionDays: 'logRetentionDays',
  logLevel: 'logLevel',
  summarizeReservedConcurrency: 'summarizeReservedConcurrency',
  workerConcurrency: 'workerConcurrency',
  collectionConcurrency: 'collectionConcurrency',
  youtubeClients: 'youtubeClients',
  youtubeProxyRetries: 'youtubeProxyRetries',
  allowedModels: 'allowedModels',
  defaultModel: 'defaultModel',
  summaryDailyQuota: 'summaryDailyQuota',
  modelCatalogJson: 'modelCatalogJson',
  openaiBaseUrl: 'openaiBaseUrl',
  openaiModels: 'openaiModels',
  alarmEmail: 'alarmEmail',
  transcription: 'transcription',
  transcriptionBaseUrl: 'transcriptionBaseUrl',
  transcriptionModel: 'transcriptionModel',
  transcriptionMaxMinutes: 'transcriptionMaxMinutes',
  transcriptionDailyMinutes: 'transcriptionDailyMinutes',
} as const;

/**
 * Settings both sides of a summary must agree on, context key -> variable: the catalog (POST
 * /summarize checks `used_model` and picks the default, the worker runs the model) and the daily
 * quota (/summarize reserves a unit, the worker gives it back when a run fails on our side).
 */
export const CATALOG_CONTEXT = {
  allowedModels: 'ALLOWED_MODELS',
  defaultModel: 'DEFAULT_MODEL',
  summaryDailyQuota: 'SUMMARY_DAILY_QUOTA',
  modelCatalogJson: 'MODEL_CATALOG_JSON',
  openaiBaseUrl: 'OPENAI_BASE_URL',
  openaiModels: 'OPENAI_MODELS',
} as const;

/** How the worker reaches YouTube, context key -> variable (only the worker fetches). */
export const YOUTUBE_CONTEXT = {
  youtubeClients: 'YOUTUBE_CLIENTS',
  youtubeProxyRetries: 'YOUTUBE_PROXY_RETRIES',
} as const;

/**
 * How videos without captions are transcribed, context key -> variable: for the worker, and for
 * /ask and /mcp, whose problems say whether a summary would transcribe the video.
 * `transcription` itself (the backend) is read apart: amazon-transcribe adds the audio bucket.
 */
export const TRANSCRIPTION_CONTEXT = {
  transcriptionBaseUrl: 'TRANSCRIPTION_BASE_URL',
  transcriptionModel: 'TRANSCRIPTION_MODEL',
  transcriptionMaxMinutes: 'TRANSCRIPTION_MAX_MINUTES',
  transcriptionDailyMinutes: 'TRANSCRIPTION_DAILY_MINUTES',
} as const;

/** Every summary setting that comes from context (both maps above). */
export const SUMMARY_CONTEXT = { ...CATALOG_CONTEXT, ...YOUTUBE_CONTEXT } as const;
