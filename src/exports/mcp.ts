// `longship/mcp`: Longship as an MCP server (docs/guide/mcp.md): the server, its Streamable HTTP fetch
// handler (Node, Deno, workerd) and its stdio transport (Node).

export { createMcpFetchHandler, type McpHttpOptions } from '../mcp/http.js';
export { createMcpServer, type McpServerOptions } from '../mcp/server.js';
export { type McpStdio, type McpStdioOptions, serveMcpStdio } from '../mcp/stdio.js';
