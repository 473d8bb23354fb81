/**
 * The tools as the `tools` command describes them. In the bundle (dist/tools-cli.cjs) this module is
 * replaced by the table written out at build time (tools/cli/bundle.mjs), so the bundle carries no zod.
 */
import { TOOL_HELP } from '../catalog/index.js';

export { TOOL_HELP };
