// The operator's credentials for third parties (the YouTube proxy URL and Data API key, the
// OpenAI-compatible server's API key), as deploy-time parameters stored in one Secrets Manager
// secret: `cdk deploy --parameters YoutubeProxyUrl=http://user:pass@proxy:8080`. The template
// holds only references (NoEcho parameters), the function's environment only the secret's ARN,
// and the function reads the value once per cold start (CREDENTIALS_SECRET_ARN).
import {
  CfnCondition,
  CfnParameter,
  Fn,
  RemovalPolicy,
  SecretValue,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { OperatorCredentials } from '../../lib/aws/operator-credentials';
import { grantGetSecretValue } from '../grants';

/** The parameters' names, as `cdk deploy --parameters NAME=value` takes them. */
export const CREDENTIAL_PARAMETERS = {
  youtubeProxyUrl: 'YoutubeProxyUrl',
  youtubeApiKey: 'YoutubeApiKey',
  openaiApiKey: 'OpenaiApiKey',
  transcriptionApiKey: 'TranscriptionApiKey',
} as const satisfies Record<keyof OperatorCredentials, string>;

// Values go into the secret's JSON as they are: no quotes, backslashes or whitespace.
const PARAMETERS: Record<
  keyof OperatorCredentials,
  { description: string; pattern: string; rule: string }
> = {
  youtubeProxyUrl: {
    description:
      'HTTP(S) proxy for YouTube requests, credentials in the URL (http://user:pass@host:port); empty for none',
    pattern: '^(https?://[^\\s"\\\\]+)?$',
    rule: 'must be empty or an http:// or https:// URL',
  },
  youtubeApiKey: {
    description: 'YouTube Data API v3 key (adds like and comment counts); empty for none',
    pattern: '^[A-Za-z0-9_-]*$',
    rule: 'must be empty or an API key (letters, digits, - and _)',
  },
  openaiApiKey: {
    description: 'API key of the OpenAI-compatible server at openaiBaseUrl; empty for none',
    pattern: '^[^\\s"\\\\]*$',
    rule: 'must be empty or a key without spaces, quotes or backslashes',
  },
  transcriptionApiKey: {
    description:
      'API key of the OpenAI-compatible transcription server at transcriptionBaseUrl; empty for none',
    pattern: '^[^\\s"\\\\]*$',
    rule: 'must be empty or a key without spaces, quotes or backslashes',
  },
};

export class CredentialsSecret extends Construct {
  readonly secret: Secret;
  /** CREDENTIALS_SECRET_ARN's value: the ARN when a parameter is set, else empty (nothing to read). */
  readonly secretArnIfSet: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // On the stack itself, so that their names are exactly the ones above (a construct's
    // children get a hash suffix). `cdk deploy` keeps a parameter's previous value when it
    // is not given again; pass an empty value to remove it.
    const stack = Stack.of(this);
    const values: Record<string, SecretValue> = {};
    const set: ReturnType<typeof Fn.conditionNot>[] = [];
    for (const [field, spec] of Object.entries(PARAMETERS)) {
      const parameter = new CfnParameter(
        stack,
        CREDENTIAL_PARAMETERS[field as keyof OperatorCredentials],
        {
          type: 'String',
          noEcho: true,
          default: '',
          description: spec.description,
          allowedPattern: spec.pattern,
          constraintDescription: spec.rule,
        },
      );
      values[field] = SecretValue.cfnParameter(parameter);
      set.push(Fn.conditionNot(Fn.conditionEquals(parameter.valueAsString, '')));
    }

    this.secret = new Secret(this, 'Secret', {
      description: 'Third-party credentials of tubesum (from the stack parameters)',
      secretObjectValue: values,
      // The values come from the parameters and are given again on the next deploy.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Holds third-party credentials (a proxy URL, API keys) that Secrets Manager cannot rotate: the operator changes them with `cdk deploy --parameters`, which updates the secret.',
    });

    // Without any parameter the function reads nothing at cold start.
    const isSet = new CfnCondition(this, 'IsSet', { expression: Fn.conditionOr(...set) });
    this.secretArnIfSet = Fn.conditionIf(isSet.logicalId, this.secret.secretArn, '').toString();
  }

  /** Lets a role read the credentials. */
  grantRead(role: iam.IRole): void {
    grantGetSecretValue(role, this.secret);
  }
}
