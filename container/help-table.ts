/**
 * The tools as the `tools` command describes them: their definitions without the schemas. In the bundle
 * (dist/tools-cli.cjs) this module is replaced by the table written out at build time (scripts/bundle.mjs),
 * so the bundle carries no zod.
 */
import { ALL_TOOLS, toolHelp, type ToolHelp } from '../tools/catalog/index.js';

export const TOOL_HELP: readonly ToolHelp[] = ALL_TOOLS.map(toolHelp);
