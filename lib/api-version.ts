// The API's version: one number for the OpenAPI document and the MCP server, kept apart from
// the route table so that the MCP endpoint, which the table names, need not import it.
export const API_VERSION = '0.1.0';
