// Types of parse-prefer-header 1.0.0, which ships none: preference names in camelCase, each
// `true` when it has no value, else its value as written.
declare module 'parse-prefer-header' {
  function parsePreferHeader(
    prefer: string | string[] | undefined,
  ): Record<string, string | true | undefined>;
  export default parsePreferHeader;
}
