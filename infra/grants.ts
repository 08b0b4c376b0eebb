// Grants more precise than the L2 helpers'.
import * as iam from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';

/** Lets a role read a secret's value: GetSecretValue only (grantRead adds DescribeSecret). */
export function grantGetSecretValue(role: iam.IRole, secret: ISecret): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['secretsmanager:GetSecretValue'],
      resources: [secret.secretArn],
    }),
  );
}
