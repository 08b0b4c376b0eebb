// Which Bedrock resources the worker may invoke: exactly the models of the catalog
// this deployment offers (built-ins, MODEL_CATALOG_JSON, narrowed by ALLOWED_MODELS), never `*`.
import { Annotations, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { Catalog } from '../lib/models/catalog';

/** Prefixes of system-defined cross-region inference profiles (`us.amazon.nova-micro-v1:0`). */
const GEO_PROFILE = /^(us|us-gov|eu|apac|jp|au|ca|global)\.(.+)$/;
const BEDROCK_ARN = /^arn:([^:]+):bedrock:([^:]*):([^:]*):([^/]+)\/(.+)$/;

export interface ArnScope {
  partition: string;
  region: string;
  account: string;
}

export interface BedrockResources {
  /** Models and profiles invoked by id: granted outright. */
  direct: string[];
  /**
   * Foundation models behind cross-region profiles, in every region the profile may route to
   * (hence `*` for the region). Granted only through one of `profiles` (IAM condition).
   */
  viaProfile: string[];
  /** The inference profiles themselves, in this stack's region and account. */
  profiles: string[];
  /** Ids whose underlying model cannot be derived (application profiles and the like). */
  opaque: string[];
}

/** The Bedrock model ids of a catalog (the offline extractive summarizer needs none). */
export function bedrockModelIds(catalog: Catalog): string[] {
  const ids = new Set<string>();
  for (const entry of catalog.models.values()) if (entry.kind === 'bedrock') ids.add(entry.modelId);
  return [...ids];
}

/** The IAM resources needed to call Converse on each model id (see BedrockResources). */
export function bedrockResources(modelIds: readonly string[], scope: ArnScope): BedrockResources {
  const { partition, region, account } = scope;
  const result: BedrockResources = { direct: [], viaProfile: [], profiles: [], opaque: [] };
  const addProfile = (profileArn: string, profileId: string) => {
    const geo = GEO_PROFILE.exec(profileId);
    result.profiles.push(profileArn);
    if (!geo?.[2]) {
      result.opaque.push(profileId);
      return;
    }
    // The profile routes each call to one of its destination regions; IAM checks the
    // foundation model there, so the region must be open (but the condition pins the profile).
    result.viaProfile.push(`arn:${partition}:bedrock:*::foundation-model/${geo[2]}`);
    // Global profiles may also route outside any named region; AWS documents the region-less ARN.
    if (geo[1] === 'global')
      result.viaProfile.push(`arn:${partition}:bedrock:::foundation-model/${geo[2]}`);
  };

  for (const id of modelIds) {
    const arn = BEDROCK_ARN.exec(id);
    if (arn) {
      const [, , , , type, name = ''] = arn;
      if (type === 'inference-profile') addProfile(id, name);
      else {
        result.direct.push(id);
        // An application inference profile or provisioned model hides which model it serves.
        if (type !== 'foundation-model') result.opaque.push(id);
      }
    } else if (GEO_PROFILE.test(id)) {
      addProfile(`arn:${partition}:bedrock:${region}:${account}:inference-profile/${id}`, id);
    } else {
      result.direct.push(`arn:${partition}:bedrock:${region}::foundation-model/${id}`);
    }
  }
  const unique = (values: string[]) => [...new Set(values)];
  return {
    direct: unique(result.direct),
    viaProfile: unique(result.viaProfile),
    profiles: unique(result.profiles),
    opaque: unique(result.opaque),
  };
}

/**
 * Lets `role` call Converse (bedrock:InvokeModel) on exactly these models and profiles, and
 * acknowledges the cdk-nag finding this deliberately raises (open regions behind a profile).
 * `owner` carries the warning for models whose foundation model cannot be derived.
 */
export function grantBedrockModels(
  owner: Construct,
  role: iam.Role,
  modelIds: readonly string[],
): void {
  const stack = Stack.of(owner);
  const resources = bedrockResources(modelIds, {
    partition: stack.partition,
    region: stack.region,
    account: stack.account,
  });
  if (resources.opaque.length > 0) {
    Annotations.of(owner).addWarningV2(
      'tubesum:bedrock-opaque-model',
      `Cannot tell which foundation model ${resources.opaque.join(', ')} serves: only the ARN itself is granted. Add the underlying foundation-model ARNs to the worker's role if Bedrock answers AccessDenied.`,
    );
  }
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['bedrock:InvokeModel'],
      resources: [...resources.profiles, ...resources.direct],
    }),
  );
  if (resources.viaProfile.length === 0) return;
  // The foundation models in the profiles' destination regions, usable only through one of the
  // granted profiles, never called directly in another region.
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['bedrock:InvokeModel'],
      resources: resources.viaProfile,
      conditions: { ArnLike: { 'bedrock:InferenceProfileArn': resources.profiles } },
    }),
  );
  // The same open-region ARNs with CloudFormation's pseudo parameters spelled the way cdk-nag
  // prints them: one acknowledged finding per resource.
  const printed = bedrockResources(modelIds, {
    partition: '<AWS::Partition>',
    region: '<AWS::Region>',
    account: '<AWS::AccountId>',
  });
  for (const arn of printed.viaProfile.filter((each) => each.includes('*'))) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${arn}]`,
      reason:
        'A cross-region inference profile sends each call to the model in one of several regions chosen by Bedrock, so the region of the foundation-model ARN must be open; the model id is fixed and a condition allows it only through the granted inference profile.',
    });
  }
}
