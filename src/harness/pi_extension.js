// cuecard for pi: on the events in HOOKS it runs each entry's command
// (`cuecard dispatch --contract pi <event> <cards>`) with the event as JSON
// on stdin, reads the one JSON object it prints, and puts the answer where
// pi hands it to the model. Written by `cuecard install --harness pi` from
// the cards' Bindings. It fails open: a missing binary, a hang (killed after
// the entry's timeout), a crash or garbage output leaves pi as if this file
// were not here. CommonJS, as pi loads a `.js` extension.
"use strict";
const { spawn } = require("node:child_process");

const HOOKS = __CUECARD_HOOKS__;
const MAX_OUTPUT = 256 * 1024;

// The entries registered for a native event (for a tool, those whose
// matcher, an anchored regex, matches it).
function entries(event, subject) {
  const groups = (HOOKS && HOOKS.hooks && HOOKS.hooks[event]) || [];
  const out = [];
  for (const g of Array.isArray(groups) ? groups : []) {
    if (subject !== undefined && g && typeof g.matcher === "string" && g.matcher !== "") {
      try {
        if (!new RegExp(g.matcher).test(String(subject))) continue;
      } catch {
        continue;
      }
    }
    for (const h of (g && g.hooks) || []) {
      if (h && typeof h.command === "string") out.push(h);
    }
  }
  return out;
}

const wired = (event) => entries(event).length > 0;

// One entry's answer: the JSON object it printed, or null (nothing, a
// failure, a timeout, output that is not one object).
function run(h, payload) {
  return new Promise((resolve) => {
    let done = false;
    let out = "";
    let child;
    const secs = Number(h.timeout) > 0 ? Number(h.timeout) : 10;
    const finish = (v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
    };
    const kill = () => {
      try {
        if (child) child.kill("SIGKILL");
      } catch {}
    };
    const timer = setTimeout(() => {
      kill();
      finish(null);
    }, secs * 1000);
    try {
      child = spawn(h.command, Array.isArray(h.args) ? h.args.map(String) : [], {
        stdio: ["pipe", "pipe", "ignore"],
        windowsHide: true,
      });
    } catch {
      return finish(null);
    }
    child.on("error", () => finish(null));
    child.stdout.on("data", (d) => {
      out += d;
      if (out.length > MAX_OUTPUT) {
        kill();
        finish(null);
      }
    });
    child.on("close", () => {
      try {
        const v = JSON.parse(out.trim() || "null");
        finish(v && typeof v === "object" && !Array.isArray(v) ? v : null);
      } catch {
        finish(null);
      }
    });
    child.stdin.on("error", () => {});
    try {
      child.stdin.end(JSON.stringify(payload));
    } catch {}
  });
}

async function dispatch(event, payload, subject) {
  const answers = [];
  for (const h of entries(event, subject)) {
    const a = await run(h, { ...payload, hook_event_name: event });
    if (a) answers.push(a);
  }
  return answers;
}

const context = (answers) =>
  answers
    .map((a) => (typeof a.additionalContext === "string" ? a.additionalContext : ""))
    .filter((s) => s !== "")
    .join("\n\n");

// The text of a tool result's content parts.
const text = (content) =>
  (Array.isArray(content) ? content : [])
    .filter((p) => p && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n");

// The token counts pi reported for an assistant message (`message.usage` of
// a `message_end` or `turn_end` event: `input`, `output`, `cacheRead`,
// `cacheWrite`), as cuecard reads them (`context_usage`, OpenCode's shape),
// with the window of the session's model (`ctx.model.contextWindow`) as its
// `limit`; or null: a user or tool message, a failed call with no counts.
function reported(m, model) {
  if (!m || m.role !== "assistant" || !m.usage || typeof m.usage !== "object") return null;
  const n = (v) => (Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  const u = m.usage;
  const tokens = { input: n(u.input), output: n(u.output), cache: { read: n(u.cacheRead), write: n(u.cacheWrite) } };
  if (tokens.input + tokens.output + tokens.cache.read + tokens.cache.write === 0) return null;
  const out = { id: String(m.responseId || m.timestamp || ""), tokens };
  if (typeof m.model === "string" && m.model) {
    out.model = (typeof m.provider === "string" && m.provider ? m.provider + "/" : "") + m.model;
  }
  const limit = model && n(model.contextWindow);
  if (limit >= 1000) out.limit = limit;
  return out;
}

module.exports = function cuecard(pi) {
  const usage = new Map(); // session -> the last usage pi reported
  const base = (ctx) => {
    let id = "";
    try {
      id = String((ctx && ctx.sessionManager && ctx.sessionManager.getSessionId()) || "");
    } catch {}
    const b = { session_id: id, cwd: (ctx && ctx.cwd) || process.cwd() };
    const u = usage.get(id);
    if (u) b.context_usage = u;
    return b;
  };
  const started = new Set(); // sessions whose start cards were given
  const compacted = new Set(); // sessions whose next start is after a compaction

  // Each provider response's token counts, passed with the next calls so
  // the compaction warning works from what the model really holds. An
  // assistant message ends before its tool calls run, so a tool_result
  // carries the counts of the call that asked for it.
  if (wired("tool_result") || wired("before_agent_start")) {
    const keep = async (event, ctx) => {
      try {
        const u = reported(event && event.message, ctx && ctx.model);
        if (u) usage.set(base(ctx).session_id, u);
      } catch {}
    };
    pi.on("message_end", keep);
    pi.on("turn_end", keep);
    pi.on("session_compact", async (_event, ctx) => {
      try {
        usage.delete(base(ctx).session_id);
      } catch {}
    });
  }

  // Session-start cards have no channel at session_start: they join the
  // system prompt of the session's first turn, and of the first turn after
  // a compaction; prompt cards join every turn's.
  if (wired("session_start") || wired("before_agent_start")) {
    pi.on("before_agent_start", async (event, ctx) => {
      try {
        const b = base(ctx);
        const parts = [];
        if (wired("session_start") && !started.has(b.session_id)) {
          started.add(b.session_id);
          const source = compacted.delete(b.session_id) ? "compact" : "startup";
          parts.push(context(await dispatch("session_start", { ...b, source }, source)));
        }
        if (wired("before_agent_start")) {
          const prompt = event && typeof event.prompt === "string" ? event.prompt : "";
          parts.push(context(await dispatch("before_agent_start", { ...b, prompt })));
        }
        const add = parts.filter((s) => s).join("\n\n");
        if (add && event && typeof event.systemPrompt === "string") {
          return { systemPrompt: event.systemPrompt + "\n\n" + add };
        }
      } catch {}
      return undefined;
    });
  }

  if (wired("session_start")) {
    pi.on("session_compact", async (_event, ctx) => {
      try {
        const id = base(ctx).session_id;
        started.delete(id);
        compacted.add(id);
      } catch {}
    });
  }

  if (wired("tool_call")) {
    pi.on("tool_call", async (event, ctx) => {
      try {
        const answers = await dispatch(
          "tool_call",
          { ...base(ctx), tool_name: event.toolName, tool_input: event.input, tool_use_id: event.toolCallId },
          event.toolName,
        );
        const d = answers.find((a) => a.permissionDecision === "deny");
        if (d) return { block: true, reason: String(d.permissionDecisionReason || "denied by the cuecard policy") };
      } catch {}
      return undefined;
    });
  }

  if (wired("tool_result")) {
    pi.on("tool_result", async (event, ctx) => {
      try {
        const add = context(
          await dispatch(
            "tool_result",
            {
              ...base(ctx),
              tool_name: event.toolName,
              tool_input: event.input,
              tool_response: text(event.content),
              tool_use_id: event.toolCallId,
            },
            event.toolName,
          ),
        );
        if (add && Array.isArray(event.content)) {
          return { content: [...event.content, { type: "text", text: "\n\n" + add }] };
        }
      } catch {}
      return undefined;
    });
  }
};
