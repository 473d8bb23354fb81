export { startScriptedModelServer, keyFingerprint, type ScriptedModelServer, type ScriptedModelServerOptions, type RecordedRequest, type ServedUsage } from './server.js';
export { MINI_SWE_SUBMIT, type ScriptTurn, type TurnUsage } from './script.js';
