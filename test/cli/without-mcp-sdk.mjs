// A Node loader (`node --import ./without-mcp-sdk.mjs`) under which the MCP SDK is not installed:
// importing it fails as Node fails for any missing package, so a test sees what a user without
// the optional peer sees.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === '@modelcontextprotocol/sdk' || specifier.startsWith('@modelcontextprotocol/sdk/')) {
    const error = new Error("Cannot find package '@modelcontextprotocol/sdk' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
