// An MCP server over stdio for clients that start one as a command (docs/guide/mcp.md):
//   node longship-mcp.mjs [folder]
// Longship keeps everything in the folder (default ./context); the bundled model embeds on this
// machine. stdout is the protocol's, so nothing else may print there.
import { openLongship } from 'longship';
import { serveMcpStdio } from 'longship/mcp';

const longship = await openLongship({ store: process.argv[2] ?? './context' });
const { closed } = await serveMcpStdio(longship);
await closed; // the client hung up (stdin ended)
await longship.close(); // lets go of the folder's lock
