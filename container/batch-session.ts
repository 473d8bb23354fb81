import { gatewayFromEnv } from './gateway-client.js';
import { executeTool } from './execute.js';

export interface ToolReply {
  ok: boolean;
  text: string;
}

/**
 * Tool calls of a built-in program (the oracles, the WikiRace players) through the `tools` command's own
 * client code (./execute.ts), in the program's process: the same gateway requests as `tools NAME`
 * without a second Node process per trial. A gateway that cannot be reached rejects the call.
 */
export function toolsSession(): { call: (tool: string, args?: Record<string, unknown>) => Promise<ToolReply>; close: () => void } {
  const gateway = gatewayFromEnv();
  return {
    call: (tool, args = {}) => executeTool(gateway, tool, args),
    close: () => {},
  };
}
