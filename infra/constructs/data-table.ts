// The service's one DynamoDB table (users, login counters, caches, quotas, summary records and
// jobs, told apart by their keys) and its one index, a user's jobs (GET /summaries).
import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { JOBS_INDEX, TABLE_PARTITION_KEY, TABLE_TTL_ATTRIBUTE } from '../../lib/aws/table';

export class DataTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Named "Default" so that its logical ID is the one the table had before this construct
    // existed: a new logical ID would make CloudFormation create a new, empty table.
    this.table = new Table(this, 'Default', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      timeToLiveAttribute: TABLE_TTL_ATTRIBUTE,
      // On-demand: nothing to pay at rest and no capacity to plan for spiky traffic.
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The AWS-managed key (aws/dynamodb): no monthly key fee, and unlike the default
      // AWS-owned key its use shows up in CloudTrail. A customer key ($1/month) only pays off
      // if you must control the key policy or revoke access by disabling the key.
      encryption: TableEncryption.AWS_MANAGED,
      // Users must not vanish with `cdk destroy`: the table stays and cannot be deleted by
      // accident (turn deletion protection off first; see docs/aws.md).
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    // Adding an index to a deployed table is an in-place update (the table and its items stay);
    // DynamoDB backfills it from the existing items, of which only jobs carry its keys.
    this.table.addGlobalSecondaryIndex({
      indexName: JOBS_INDEX.name,
      partitionKey: { name: JOBS_INDEX.partitionKey, type: AttributeType.STRING },
      sortKey: { name: JOBS_INDEX.sortKey, type: AttributeType.STRING },
      // A page of jobs is one Query, no GetItem per job.
      projectionType: ProjectionType.ALL,
    });
  }
}
