// The CDK app (`cdk.json` runs it with tsx): one stack, checked by cdk-nag's AwsSolutions
// pack on every synth, so a finding without a written acknowledgement fails `npm run synth`.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CONTEXT } from './settings';
import { TubesumStack } from './stack';

const app = new App();
// Another name (`-c stackName=TubesumDev`) deploys an independent copy in the same account.
const stackName = String(app.node.tryGetContext(CONTEXT.stackName) ?? 'Tubesum');
new TubesumStack(app, stackName);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
