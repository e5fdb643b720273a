// cuecard for OpenCode: on the events in HOOKS it runs each entry's command
// (`cuecard dispatch --contract opencode <event> <cards>`) with the event as
// JSON on stdin, reads the one JSON object it prints, and puts the answer
// where OpenCode hands it to the model. Written by `cuecard install --harness
// opencode` from the cards' Bindings. It fails open: a missing binary, a
// hang (killed after the entry's timeout), a crash or garbage output leaves
// OpenCode as if this file were not here.
import { spawn } from "node:child_process";

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

// The token counts of an assistant message (a `message.updated` event's
// `info`), as cuecard reads them (`context_usage`), or null: a message
// with no counts yet, a user message, a compaction's summary call.
function reported(m) {
  if (!m || m.role !== "assistant" || !m.sessionID || m.summary || !m.tokens) return null;
  const n = (v) => (Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  const t = m.tokens;
  const c = t.cache || {};
  const tokens = { input: n(t.input), output: n(t.output), reasoning: n(t.reasoning), cache: { read: n(c.read), write: n(c.write) } };
  if (tokens.input + tokens.output + tokens.cache.read + tokens.cache.write === 0) return null;
  const model = typeof m.modelID === "string" ? (typeof m.providerID === "string" ? m.providerID + "/" : "") + m.modelID : undefined;
  return { id: String(m.id || ""), model, tokens };
}

export const CuecardPlugin = async (input) => {
  const cwd = (input && (input.directory || input.worktree)) || process.cwd();
  const usage = new Map(); // session -> the last usage OpenCode reported
  const limits = new Map(); // session -> its model's context limit (chat.params)
  const base = (sessionID) => {
    const b = { session_id: String(sessionID || ""), cwd };
    const u = usage.get(b.session_id);
    if (u) {
      const limit = limits.get(b.session_id);
      b.context_usage = limit ? { ...u, limit } : u;
    }
    return b;
  };
  const started = new Map(); // session -> its SessionStart context
  const compacted = new Set(); // sessions whose next start is after a compaction
  const turn = new Map(); // session -> the current prompt's context
  const hooks = {};

  if (wired("session.created") || wired("chat.message")) {
    hooks["experimental.chat.system.transform"] = async (i, output) => {
      try {
        const id = i && i.sessionID;
        if (!id || !output || !Array.isArray(output.system)) return;
        if (wired("session.created") && !started.has(id)) {
          started.set(id, "");
          const source = compacted.delete(id) ? "compact" : "startup";
          started.set(id, context(await dispatch("session.created", { ...base(id), source }, source)));
        }
        for (const text of [started.get(id), turn.get(id)]) {
          if (text) output.system.push(text);
        }
      } catch {}
    };
  }

  // Compactions (the next model call starts the session again), and each
  // assistant message's token counts, passed with the next calls so the
  // compaction warning works from what the model really holds.
  if (wired("session.created") || wired("chat.message") || wired("tool.execute.after")) {
    hooks.event = async ({ event } = {}) => {
      try {
        const props = (event && event.properties) || {};
        if (event.type === "message.updated") {
          const u = reported(props.info);
          if (u) usage.set(String(props.info.sessionID), u);
        }
        const id = event.type === "session.compacted" && props.sessionID;
        if (id) {
          usage.delete(String(id));
          if (wired("session.created")) {
            started.delete(id);
            compacted.add(id);
          }
        }
      } catch {}
    };
  }

  if (wired("chat.message")) {
    hooks["chat.message"] = async (i, output) => {
      try {
        const id = i && i.sessionID;
        if (!id) return;
        const prompt = ((output && output.parts) || [])
          .filter((p) => p && p.type === "text" && !p.synthetic && typeof p.text === "string")
          .map((p) => p.text)
          .join("\n");
        turn.set(id, context(await dispatch("chat.message", { ...base(id), prompt })));
      } catch {}
    };
  }

  // The model's metadata (`limit.context`, from the provider entry or
  // OpenCode's model list) comes with each call's parameters: the window
  // the usage is compared with.
  if (wired("chat.message") || wired("tool.execute.after")) {
    hooks["chat.params"] = async (i) => {
      try {
        const c = i && i.model && i.model.limit && i.model.limit.context;
        if (i.sessionID && Number.isFinite(c) && c >= 1000) limits.set(String(i.sessionID), Math.floor(c));
      } catch {}
    };
  }

  if (wired("tool.execute.before")) {
    hooks["tool.execute.before"] = async (i, output) => {
      let deny;
      try {
        const answers = await dispatch(
          "tool.execute.before",
          { ...base(i.sessionID), tool_name: i.tool, tool_input: output && output.args, tool_use_id: i.callID },
          i.tool,
        );
        const d = answers.find((a) => a.permissionDecision === "deny");
        if (d) deny = String(d.permissionDecisionReason || "denied by the cuecard policy");
      } catch {}
      if (deny) throw new Error(deny);
    };
  }

  if (wired("tool.execute.after")) {
    hooks["tool.execute.after"] = async (i, output) => {
      try {
        const text = context(
          await dispatch(
            "tool.execute.after",
            {
              ...base(i.sessionID),
              tool_name: i.tool,
              tool_input: i.args,
              tool_response: output && output.output,
              tool_use_id: i.callID,
            },
            i.tool,
          ),
        );
        if (text && output && typeof output.output === "string") output.output += "\n\n" + text;
      } catch {}
    };
  }

  return hooks;
};
