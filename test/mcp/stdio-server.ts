// The MCP server on stdio, as a user's script would run it (docs/guide/mcp.md): a Longship in the folder
// named by argv[2], with the hashing test embedder, served until the client hangs up; `--packs`
// after the folder offers the pack tools too.

import { serveMcpStdio } from '../../src/exports/mcp.js';
import { openLongship } from '../../src/index.js';
import { hashEmbedder } from '../context/hash-embedder.js';

const longship = await openLongship({ store: process.argv[2], embedder: hashEmbedder });
const { closed } = await serveMcpStdio(longship, { packs: process.argv.includes('--packs') });
await closed;
await longship.close();
