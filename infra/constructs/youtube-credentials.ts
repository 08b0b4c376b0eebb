// The YouTube proxy URL and Data API key, as deploy-time parameters stored in a Secrets Manager
// secret: `cdk deploy --parameters YoutubeProxyUrl=http://user:pass@proxy:8080`. The template
// holds only references (NoEcho parameters), the function's environment only the secret's ARN,
// and the function reads the value once per cold start (YOUTUBE_SECRET_ARN).
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
import { grantGetSecretValue } from '../grants';

/** The parameters' names, as `cdk deploy --parameters NAME=value` takes them. */
export const YOUTUBE_PARAMETERS = {
  proxyUrl: 'YoutubeProxyUrl',
  apiKey: 'YoutubeApiKey',
} as const;

export class YouTubeCredentials extends Construct {
  readonly secret: Secret;
  /** YOUTUBE_SECRET_ARN's value: the ARN when a parameter is set, else empty (nothing to read). */
  readonly secretArnIfSet: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // On the stack itself, so that their names are exactly the ones above (a construct's
    // children get a hash suffix). `cdk deploy` keeps a parameter's previous value when it
    // is not given again; pass an empty value to remove it.
    const stack = Stack.of(this);
    const proxyUrl = new CfnParameter(stack, YOUTUBE_PARAMETERS.proxyUrl, {
      type: 'String',
      noEcho: true,
      default: '',
      description:
        'HTTP(S) proxy for YouTube requests, credentials in the URL (http://user:pass@host:port); empty for none',
      // No quotes or backslashes: the value is placed in the secret's JSON as is.
      allowedPattern: '^(https?://[^\\s"\\\\]+)?$',
      constraintDescription: 'must be empty or an http:// or https:// URL',
    });
    const apiKey = new CfnParameter(stack, YOUTUBE_PARAMETERS.apiKey, {
      type: 'String',
      noEcho: true,
      default: '',
      description: 'YouTube Data API v3 key (adds like and comment counts); empty for none',
      allowedPattern: '^[A-Za-z0-9_-]*$',
      constraintDescription: 'must be empty or an API key (letters, digits, - and _)',
    });

    this.secret = new Secret(this, 'Secret', {
      description: 'YouTube proxy URL and Data API key of tubesum (from the stack parameters)',
      secretObjectValue: {
        proxyUrl: SecretValue.cfnParameter(proxyUrl),
        apiKey: SecretValue.cfnParameter(apiKey),
      },
      // The values come from the parameters and are given again on the next deploy.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Holds a third-party proxy URL and API key that Secrets Manager cannot rotate: the operator changes them with `cdk deploy --parameters`, which updates the secret.',
    });

    // Without either parameter the function reads nothing at cold start.
    const isSet = new CfnCondition(this, 'IsSet', {
      expression: Fn.conditionOr(
        Fn.conditionNot(Fn.conditionEquals(proxyUrl.valueAsString, '')),
        Fn.conditionNot(Fn.conditionEquals(apiKey.valueAsString, '')),
      ),
    });
    this.secretArnIfSet = Fn.conditionIf(isSet.logicalId, this.secret.secretArn, '').toString();
  }

  /** Lets a role read the credentials. */
  grantRead(role: iam.IRole): void {
    grantGetSecretValue(role, this.secret);
  }
}
