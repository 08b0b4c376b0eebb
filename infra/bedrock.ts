// Which Bedrock resources the summarize function may invoke: exactly the models of the catalog
// this deployment offers (built-ins, MODEL_CATALOG_JSON, narrowed by ALLOWED_MODELS), never `*`.
import type { Catalog } from '../lib/summaries/catalog';

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
