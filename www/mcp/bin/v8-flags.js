// Imported first by agentpad-mcp.js, so it runs before @agentpad/core is evaluated (ES modules
// run in import order), whose evaluation starts the wasm compile. This process is the server's
// own, so it may set a V8 flag for itself, which the library may not
// (docs/decisions.md#no-v8-flags-from-the-package): the core's module, which the package ships as
// built, is then validated function by function on first call instead of whole at compile —
// ~15 ms less CPU to the first answer (docs/performance.md#cold-start).
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--wasm-lazy-validation");
