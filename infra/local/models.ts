// Which models `npm start` offers, said once at start: the catalog of the Config (a bad setting
// stops the start with its line; a model whose window is too small is left out with its line),
// less the built-in Bedrock models when this machine has no AWS credentials. A laptop without
// AWS would otherwise offer five models on the page, in MCP's list and in `allowed_models` that
// all answer 503 model-credentials-missing. Deployed, the function role always has
// credentials, and nothing of this runs.
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { type Config, withSettings } from '../../lib/config';
import { BUILT_IN_MODELS } from '../../lib/models/catalog/built-in';
import { catalogFromConfig, catalogOf } from '../../lib/summaries/offer';

/** How long the look for credentials may take: a profile's SSO token or a process may be slow. */
const PROBE_MS = 3_000;
/** Each try of the instance metadata service (an EC2 machine's role): a laptop has none. */
const IMDS_TIMEOUT_MS = 1_000;

/**
 * Whether the AWS SDK's default credential chain (environment, shared config and credentials
 * files with their profiles and SSO, a credential process, the container or instance role)
 * finds credentials within PROBE_MS: what the Bedrock client would sign its calls with.
 */
export async function awsCredentialsFound(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_MS);
  });
  const found = defaultProvider({ timeout: IMDS_TIMEOUT_MS, maxRetries: 0 })().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([found, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `npm start` tells of its models when Bedrock's cannot be called, in one line. */
const HOW_TO_ADD_BEDROCK =
  'to add them, give this machine AWS credentials (`aws sso login` or `aws configure`, then ' +
  'AWS_PROFILE if not the default; or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) with access ' +
  'to Bedrock, and start again';

/**
 * The Config the local host serves: without AWS credentials (`credentials` false) and without
 * ALLOWED_MODELS, one whose ALLOWED_MODELS leaves out the built-in Bedrock models that neither
 * DEFAULT_MODEL nor MODEL_CATALOG_JSON names (an operator's own choice stays, and answers 503
 * until credentials come). Tells `log` which models are offered, how to add Bedrock's, and why
 * any model is left out.
 * @throws ConfigError for an invalid catalog setting (catalogFromConfig), naming it.
 */
export function localModels(config: Config, credentials: boolean, log: (line: string) => void) {
  // Checked as configured (a bad setting stops the start here); the lines below are said of
  // what is served.
  const configured = catalogOf(config);
  const defaultModel = config.DEFAULT_MODEL.trim().toLowerCase();
  // The built-in entries as they are (one MODEL_CATALOG_JSON replaces is the operator's own).
  const builtIn = new Set<unknown>(BUILT_IN_MODELS);
  const unreachable = configured.names.filter(
    (name) => builtIn.has(configured.models.get(name)) && name !== defaultModel,
  );
  const dropped = credentials || config.ALLOWED_MODELS.length > 0 ? [] : unreachable;
  const served =
    dropped.length === 0
      ? config
      : withSettings(config, {
          ALLOWED_MODELS: [
            ...configured.names.filter((name) => !dropped.includes(name)),
            // Still named, so that a request for one answers why it is left out.
            ...configured.leftOut.keys(),
          ],
        });
  const catalog = catalogFromConfig(served, (line) => log(`warning: ${line}`));
  log(`models: ${catalog.names.join(', ')}`);
  if (dropped.length > 0) {
    log(
      `Bedrock models (${dropped.join(', ')}) are not offered: no AWS credentials found; ${HOW_TO_ADD_BEDROCK}`,
    );
  } else if (!credentials) {
    const stranded = catalog.names.filter((name) => catalog.models.get(name)?.kind === 'bedrock');
    if (stranded.length > 0) {
      log(
        `warning: no AWS credentials found: ${stranded.join(', ')} answer 503 model-credentials-missing; ${HOW_TO_ADD_BEDROCK}`,
      );
    }
  }
  return served;
}
