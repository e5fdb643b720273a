// A stand-in for pi 0.73.1's extension host, for tests: loads an extension
// file the way pi loads a `.js` one (CommonJS, its default export a function
// of the extension API), then emits events shaped as the ones recorded from
// pi 0.73.1 (the shared rig's payloads-r3/pi) to the handlers it registered
// with `pi.on`, applying what they return as pi does, and prints the result
// as one JSON object. Usage: node pi_host.cjs <extension.cjs> <project dir>
// [<usage JSON>]: with a usage (pi's `message.usage`: `input`, `output`,
// `cacheRead`, `cacheWrite`, `totalTokens`), the assistant message that asks
// for the tool call ends with it (`message_end`, as pi 0.73.1 emits it before
// the tool runs) and the session's model has a 200,000-token window.
"use strict";
const [extension, dir, reported] = process.argv.slice(2);
const handlers = {};
const pi = {
  on(event, handler) {
    (handlers[event] = handlers[event] || []).push(handler);
  },
};
const ctx = { cwd: dir, hasUI: false, sessionManager: { getSessionId: () => "pi-session-1" } };
if (reported) ctx.model = { id: "mock-model", provider: "mock", contextWindow: 200000, maxTokens: 8192 };
const emit = async (event, payload) => {
  const results = [];
  for (const h of handlers[event] || []) results.push(await h({ type: event, ...payload }, ctx));
  return results.filter((r) => r !== undefined && r !== null);
};
const text = (content) => content.filter((p) => p.type === "text").map((p) => p.text).join("");

(async () => {
  const mod = require(extension);
  await (typeof mod === "function" ? mod : mod.default)(pi);
  const out = { events: Object.keys(handlers).sort() };
  await emit("session_start", { reason: "startup" });
  const turn = async () => {
    let systemPrompt = "base";
    for (const r of await emit("before_agent_start", { prompt: "please run the build", systemPrompt })) {
      if (typeof r.systemPrompt === "string") systemPrompt = r.systemPrompt;
    }
    return systemPrompt;
  };
  out.system = await turn();
  const input = { command: "rm -rf /srv/canary", description: "clean up" };
  if (reported) {
    const message = {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: input }],
      api: "openai-completions",
      provider: "mock",
      model: "mock-model",
      usage: JSON.parse(reported),
      stopReason: "toolUse",
      timestamp: 1796224467720,
      responseId: "chatcmpl-mock-1",
    };
    await emit("message_end", { message });
  }
  const call = await emit("tool_call", { toolName: "bash", toolCallId: "call_1", input });
  const block = call.find((r) => r.block);
  out.before = block ? "blocked: " + block.reason : "allowed";
  let content = [{ type: "text", text: "removed" }];
  for (const r of await emit("tool_result", { toolName: "bash", toolCallId: "call_1", input, content, isError: false })) {
    if (Array.isArray(r.content)) content = r.content;
  }
  out.after = text(content);
  out.system_second_turn = await turn();
  await emit("session_compact", { compactionEntry: { type: "compaction", summary: "OK" }, fromExtension: false });
  out.system_after_compaction = await turn();
  console.log(JSON.stringify(out));
})().catch((e) => {
  console.error(String((e && e.stack) || e));
  process.exit(1);
});
