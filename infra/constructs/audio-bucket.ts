// Where Amazon Transcribe reads the audio of a video without captions, and writes its result,
// deployed with `-c transcription=amazon-transcribe`: encrypted, never public, TLS only, every
// object gone within a day (the worker deletes both as soon as it has read the result; the
// lifecycle rule catches what a crash leaves). Only the worker's role reads and writes it, and
// only under its two prefixes; it may start Transcribe jobs that write nowhere but here, and
// read only the jobs it names.
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { AUDIO_PREFIX, JOB_NAME_PREFIX, RESULTS_PREFIX } from '../../lib/transcription/bucket';

export class AudioBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      // Audio lives for the length of one transcription; a day is S3's shortest expiry.
      lifecycleRules: [
        { expiration: Duration.days(1), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Nothing in it outlives a day: the stack may remove it (an emptied bucket).
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Objects live for the minutes of one transcription and only the worker role can touch them; CloudTrail records its API calls. Access logs would need a second bucket kept longer than the audio itself.',
    });
  }

  /**
   * Lets the worker put, read and delete audio and results under their prefixes, start
   * Transcribe jobs writing to this bucket only, and read the jobs it names (tubesum-*).
   */
  grantTranscription(role: iam.IRole): void {
    const stack = Stack.of(this);
    const objects = [AUDIO_PREFIX, RESULTS_PREFIX].map((prefix) =>
      this.bucket.arnForObjects(`${prefix}*`),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
        resources: objects,
      }),
    );
    // StartTranscriptionJob has no resource type (Service Authorization Reference): the
    // condition keeps its output in this bucket.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['transcribe:StartTranscriptionJob'],
        resources: ['*'],
        conditions: { StringEquals: { 'transcribe:OutputBucketName': this.bucket.bucketName } },
      }),
    );
    const jobs = stack.formatArn({
      service: 'transcribe',
      resource: 'transcription-job',
      resourceName: `${JOB_NAME_PREFIX}*`,
    });
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['transcribe:GetTranscriptionJob'], resources: [jobs] }),
    );
    // cdk-nag flags each wildcard: acknowledged one by one, as it prints them.
    const bucket = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket));
    const reasons: Record<string, string> = {
      [`<${bucket}.Arn>/${AUDIO_PREFIX}*`]:
        'Each transcription uploads its audio under a key named after a new job, unknown before it runs: the grant is limited to the audio prefix of the one bucket whose objects expire within a day.',
      [`<${bucket}.Arn>/${RESULTS_PREFIX}*`]:
        'Transcribe writes each result under a key named after its job, unknown before it runs: the grant is limited to the results prefix of the one bucket whose objects expire within a day.',
      '*': 'StartTranscriptionJob supports no resource type (Service Authorization Reference); a condition allows it only for jobs that write their results to the audio bucket.',
      [`arn:<AWS::Partition>:transcribe:<AWS::Region>:<AWS::AccountId>:transcription-job/${JOB_NAME_PREFIX}*`]:
        'Job names are made per transcription (the video and a random id); the worker may read only jobs whose names it makes (the tubesum- prefix), in this account and region.',
    };
    for (const [resource, reason] of Object.entries(reasons)) {
      Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
    }
  }
}
