// `longship mcp`: the store served to an MCP client over stdin and stdout (docs/guide/mcp.md), until the
// client hangs up or the process is told to stop.

import { LongshipError } from '../../errors.js';
import type { Command } from '../command.js';

/** The optional peers the MCP server is built on. */
const peers = ['@modelcontextprotocol/sdk', 'zod'];

export const mcp: Command = {
  name: 'mcp',
  summary: 'serve the store to an MCP client over stdio',
  details:
    'For clients that start a server as a command (Claude Code, Claude Desktop, Cursor):\n' +
    '  claude mcp add longship -- npx longship mcp --store /abs/path/to/store\n' +
    "stdout is the protocol's; messages go to stderr. Needs @modelcontextprotocol/sdk and zod installed\n" +
    'beside longship (optional peer dependencies). The tools and resources are those of docs/guide/mcp.md;\n' +
    'with --packs, export_pack and import_pack too (OVPacks of up to 7 MiB, as base64).',
  options: {
    packs: { type: 'boolean', help: 'offer export_pack and import_pack (docs/guide/ovpack.md, "MCP")' },
  },
  positionals: { min: 0, max: 0, name: '' },
  json: false,
  async run({ io, values, signal, storePath, open }) {
    const { serveMcpStdio } = await loadServer();
    const longship = await open('create');
    const { server, closed } = await serveMcpStdio(longship, { packs: values.packs === true });
    const stop = () => void server.close();
    signal.addEventListener('abort', stop, { once: true });
    io.stderr.write(`longship: serving ${storePath} over MCP on stdio\n`);
    await closed;
    signal.removeEventListener('abort', stop);
  },
};

/** The MCP server module, or a message that says what to install when its peers are missing. */
async function loadServer(): Promise<typeof import('../../mcp/stdio.js')> {
  try {
    return await import('../../mcp/stdio.js');
  } catch (error) {
    const missing = peers.find((peer) => String((error as Error)?.message).includes(`'${peer}`));
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' || missing === undefined) throw error;
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      `longship mcp needs ${peers.join(' and ')} (optional peer dependencies; ${missing} is missing): ` +
        `npm install ${peers.join(' ')}, or npx -p longship -p ${peers.join(' -p ')} longship mcp`,
      { cause: error },
    );
  }
}
