// CloudWatch alarms on the API's 5xx rate and on each function's crashes and throttles. Without
// actions for now: they show in the console and can be wired to SNS or chat. Every one treats
// missing data as fine, since an idle API emits no data points at all.
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { HandlerName } from '../../lib/routes';
import { pascal } from '../names';
import type { ApiFunction } from './api-function';

export interface ServiceAlarmsProps {
  api: HttpApi;
  functions: ReadonlyMap<HandlerName, ApiFunction>;
}

export class ServiceAlarms extends Construct {
  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    // The share of 5xx answers, once there is enough traffic for a rate to mean something.
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests >= 10, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: props.api.metricServerError({ period, statistic: 'Sum' }),
        requests: props.api.metricCount({ period, statistic: 'Sum' }),
      },
      period,
      label: '5xx rate (%)',
    });
    new Alarm(this, 'Api5xxRate', {
      alarmDescription: 'More than 5% of API requests answered 5xx in 5 minutes',
      metric: serverErrorRate,
      threshold: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    for (const [handler, fn] of props.functions) {
      const name = pascal(handler);
      // A handled error is a 4xx/5xx response; an invocation error is a crash or a timeout.
      new Alarm(this, `${name}Errors`, {
        alarmDescription: `The ${handler} function crashed or timed out`,
        metric: fn.function.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      // A throttled invocation fails the request: the account's concurrency (or summarize's
      // reserved concurrency) is exhausted.
      new Alarm(this, `${name}Throttles`, {
        alarmDescription: `The ${handler} function was throttled`,
        metric: fn.function.metricThrottles({ period, statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
  }
}
