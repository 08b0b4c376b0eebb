// Grants more precise than the L2 helpers'.
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { JOBS_INDEX } from '../lib/aws/table';
import type { TableAction } from './profiles';

/** Lets a role read a secret's value: GetSecretValue only (grantRead adds DescribeSecret). */
export function grantGetSecretValue(role: iam.IRole, secret: ISecret): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['secretsmanager:GetSecretValue'],
      resources: [secret.secretArn],
    }),
  );
}

/** The ARN of the jobs index (the only index, and the only thing anything queries). */
function jobsIndexArn(table: ITable): string {
  return `${table.tableArn}/index/${JOBS_INDEX.name}`;
}

/**
 * Lets a role call item actions on the table and Query on the jobs index. table.grant() would
 * add `<table>/index/*` to every action of every function once the table has an index.
 */
export function grantTableActions(
  role: iam.IRole,
  table: ITable,
  actions: readonly TableAction[],
): void {
  const items = actions.filter((action) => action !== 'dynamodb:Query');
  if (items.length > 0) {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: [...items].sort(), resources: [table.tableArn] }),
    );
  }
  if (actions.includes('dynamodb:Query')) {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [jobsIndexArn(table)] }),
    );
  }
}

/**
 * Lets a role send messages to a queue: SendMessage only (grantSendMessages adds
 * GetQueueAttributes and GetQueueUrl, which a sender given the URL never calls). The queue
 * is encrypted with SQS-managed keys, so no KMS permission is needed.
 */
export function grantSendMessage(role: iam.IRole, queue: IQueue): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
  );
}
