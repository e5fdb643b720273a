// A stand-in for OpenCode 1.18.33's plugin host, for tests: loads a plugin
// file the way OpenCode does (every export a function of the plugin input),
// then calls its hooks with inputs and outputs shaped as 1.18.33's triggers
// build them, and prints what the hooks left in the outputs as one JSON
// object. Usage: node opencode_host.mjs <plugin.mjs> <project dir>
const [plugin, dir] = process.argv.slice(2);
const mod = await import(plugin);
const input = { directory: dir, worktree: dir, project: {}, client: {}, $: undefined };
const hooks = [];
for (const fn of Object.values(mod)) hooks.push(await fn(input));
const all = (name) => hooks.map((h) => h[name]).filter(Boolean);
const call = async (name, i, o) => {
  for (const f of all(name)) await f(i, o);
  return o;
};
const out = { hooks: [...new Set(hooks.flatMap((h) => Object.keys(h)))].sort() };
const sessionID = "ses_test1";
const msg = await call(
  "chat.message",
  { sessionID, agent: "build", messageID: "msg_1" },
  { message: {}, parts: [{ type: "text", text: "please run the build" }] },
);
out.parts = msg.parts.length;
out.system = (await call("experimental.chat.system.transform", { sessionID, model: {} }, { system: ["base"] })).system;
const args = { command: "rm -rf /srv/canary", description: "clean up" };
try {
  await call("tool.execute.before", { tool: "bash", sessionID, callID: "call_1" }, { args });
  out.before = "allowed";
} catch (e) {
  out.before = "threw: " + e.message;
}
out.after = (
  await call(
    "tool.execute.after",
    { tool: "bash", sessionID, callID: "call_1", args },
    { title: "clean up", output: "removed", metadata: {} },
  )
).output;
await call("event", { event: { type: "session.compacted", properties: { sessionID } } });
out.system_after_compaction = (
  await call("experimental.chat.system.transform", { sessionID, model: {} }, { system: ["base"] })
).system;
// OpenCode reports each assistant message's token counts on the bus
// (`message.updated`, MessageV2.Info); the next tool call carries them.
const info = (tokens) => ({
  id: "msg_2",
  sessionID,
  role: "assistant",
  modelID: "claude-sonnet-4-5",
  providerID: "anthropic",
  tokens,
});
// Each call's parameters name the model, with its limits (Provider.Model).
await call(
  "chat.params",
  { sessionID, agent: "build", model: { id: "claude-sonnet-4-5", providerID: "anthropic", limit: { context: 180000, output: 8192 } }, provider: {}, message: {} },
  { temperature: undefined, topP: undefined, topK: undefined, options: {} },
);
await call("event", { event: { type: "message.updated", properties: { info: info({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }) } } });
await call("event", {
  event: {
    type: "message.updated",
    properties: { info: info({ input: 2000, output: 800, reasoning: 0, cache: { read: 170000, write: 0 } }) },
  },
});
out.after_usage = (
  await call(
    "tool.execute.after",
    { tool: "bash", sessionID, callID: "call_2", args: { command: "ls" } },
    { title: "list", output: "listed", metadata: {} },
  )
).output;
console.log(JSON.stringify(out));
