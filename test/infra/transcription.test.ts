// The stack's side of transcription (issue 26), proven on the synthesized template: with
// `-c transcription=amazon-transcribe`, an audio bucket that is encrypted, never public, TLS
// only and emptied within a day, which only the worker may read and write, and Transcribe jobs
// the worker may start (writing to that bucket only) and read (its own names only); the
// OpenAI-compatible backend by context too; nothing of it by default; cdk-nag clean.
import { Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { TubesumStack } from '../../infra/stack';
import {
  actionsOf,
  allFunctions,
  allow,
  allStatements,
  environment,
  grants,
  logicalId,
  resourcesOf,
  type Synth,
  sortGrants,
  statements,
  synth,
  testApp,
} from '../support/synth';

const transcribes = (s: Synth, handler: string) =>
  actionsOf(statements(s, handler)).some((action) => /^(s3|transcribe):/.test(action));

describe('by default', () => {
  let s: Synth;
  beforeAll(() => {
    s = synth();
  });

  it('makes no audio bucket, grants nobody S3 or Transcribe, and sets no transcription settings', () => {
    expect(resourcesOf(s, 'AWS::S3::Bucket')).toEqual([]);
    for (const handler of allFunctions) {
      expect(transcribes(s, handler), handler).toBe(false);
      expect(
        Object.keys(environment(s, handler)).filter((name) => name.startsWith('TRANSCRIPTION_')),
      ).toEqual([]);
    }
  });

  it('takes the transcription server’s key as a NoEcho parameter kept in the credentials secret', () => {
    expect(s.template.toJSON().Parameters.TranscriptionApiKey).toMatchObject({
      NoEcho: true,
      Default: '',
    });
    expect(() => synth({ transcriptionApiKey: 'sk-1' })).toThrow(
      /--parameters TranscriptionApiKey=/,
    );
  });
});

describe('-c transcription=amazon-transcribe', () => {
  let s: Synth;
  beforeAll(() => {
    s = synth({ transcription: 'amazon-transcribe', transcriptionDailyMinutes: 120 });
  });

  it('keeps the audio in an encrypted, private, TLS-only bucket whose objects expire within a day', () => {
    const bucket = s.stack.audioBucket?.bucket;
    if (!bucket) throw new Error('no audio bucket');
    const id = logicalId(s, bucket);

    s.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LifecycleConfiguration: {
        Rules: [Match.objectLike({ ExpirationInDays: 1, Status: 'Enabled' })],
      },
    });
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('lets the worker alone put, read and delete its audio and results, start jobs writing there and read its own jobs', () => {
    const id = logicalId(s, s.stack.audioBucket?.bucket as never);
    const worker = grants(s, 'worker').filter((g) => /^(s3|transcribe):/.test(g.action));
    const objects = (folder: string) => ({
      'Fn::Join': ['', [{ 'Fn::GetAtt': [id, 'Arn'] }, folder]],
    });
    const jobs = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':transcribe:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':transcription-job/tubesum-*',
        ],
      ],
    };

    expect(worker).toEqual(
      sortGrants([
        ...allow(objects('/audio/*'), 's3:DeleteObject', 's3:GetObject', 's3:PutObject'),
        ...allow(objects('/transcripts/*'), 's3:DeleteObject', 's3:GetObject', 's3:PutObject'),
        {
          action: 'transcribe:StartTranscriptionJob',
          resource: '*',
          condition: { StringEquals: { 'transcribe:OutputBucketName': { Ref: id } } },
        },
        ...allow(jobs, 'transcribe:GetTranscriptionJob'),
      ]),
    );
    for (const handler of allFunctions.filter((name) => name !== 'worker')) {
      expect(transcribes(s, handler), handler).toBe(false);
    }
    // Nothing else in the stack may touch the bucket (its policy only denies plain HTTP).
    const others = allStatements(s).filter(
      (st) =>
        JSON.stringify(st.Resource).includes(id) &&
        !actionsOf([st]).some((a) => a.startsWith('s3:') || a.startsWith('transcribe:')),
    );
    expect(others).toEqual([]);
  });

  it('tells the worker the backend and its bucket, and /ask and /mcp that summaries transcribe', () => {
    const id = logicalId(s, s.stack.audioBucket?.bucket as never);

    expect(environment(s, 'worker')).toMatchObject({
      TRANSCRIPTION_BACKEND: 'amazon-transcribe',
      TRANSCRIPTION_BUCKET: { Ref: id },
      TRANSCRIPTION_DAILY_MINUTES: '120',
    });
    for (const handler of ['ask', 'mcp']) {
      expect(environment(s, handler)).toMatchObject({ TRANSCRIPTION_BACKEND: 'amazon-transcribe' });
      expect(environment(s, handler)).not.toHaveProperty('TRANSCRIPTION_BUCKET');
    }
    expect(environment(s, 'summarize')).not.toHaveProperty('TRANSCRIPTION_BACKEND');
  });

  it('passes cdk-nag’s AwsSolutions pack, every finding acknowledged for a reason', () => {
    const app = testApp({ transcription: 'amazon-transcribe' });
    const stack = new TubesumStack(app, 'Tubesum');
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    const errors = report.violations
      .filter((v) => v.severity === 'error')
      .map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath)}`);

    expect(errors).toEqual([]);
    const reasons = stack.node
      .findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) => Object.values(m.data as Record<string, string>));
    for (const reason of reasons) expect(reason.length).toBeGreaterThan(60);
  });
});

describe('an OpenAI-compatible transcription server', () => {
  it('is set by -c transcriptionBaseUrl for the worker, /ask and /mcp, without a bucket', () => {
    const s = synth({
      transcriptionBaseUrl: 'https://api.openai.com/v1',
      transcriptionModel: 'whisper-1',
    });

    for (const handler of ['worker', 'ask', 'mcp']) {
      expect(environment(s, handler)).toMatchObject({
        TRANSCRIPTION_BACKEND: 'openai-compatible',
        TRANSCRIPTION_BASE_URL: 'https://api.openai.com/v1',
        TRANSCRIPTION_MODEL: 'whisper-1',
      });
    }
    expect(resourcesOf(s, 'AWS::S3::Bucket')).toEqual([]);
    expect(transcribes(s, 'worker')).toBe(false);
  });

  it('refuses bad transcription settings at synth time, naming them', () => {
    expect(() => synth({ transcription: 'whisper' })).toThrow(
      /context transcription must be one of openai-compatible, amazon-transcribe/,
    );
    expect(() => synth({ transcription: 'openai-compatible' })).toThrow(
      /needs transcriptionBaseUrl/,
    );
    expect(() => synth({ transcriptionBaseUrl: 'not a url' })).toThrow(/TRANSCRIPTION_BASE_URL/);
    expect(() => synth({ transcription: 'amazon-transcribe', transcriptionMaxMinutes: 0 })).toThrow(
      /TRANSCRIPTION_MAX_MINUTES/,
    );
  });
});
