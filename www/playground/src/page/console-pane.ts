// The Tool console: the tool select, its JSON arguments and form, Run, the quick buttons.
import type { JsonSchema, ToolDefinition } from "../types";
import { argsSkeleton, checkArgs, optionalProps, parseArgs, type CheckedArgs } from "../schema";
import { ArgsEditor } from "../argseditor";
import { renderArgsForm } from "../form";
import { h } from "../render";
import { PREFIX, $, sampleSelect, modeSelect, localeSelect, styleSelect, memoryToggle, app } from "./state";
import { run } from "./workspace";

export const toolSelect = $("tool-select") as HTMLSelectElement;
const runButton = $("run") as HTMLButtonElement;
const argsError = $("args-error");

// The console's raw JSON arguments (src/argseditor.ts): lint from JSON.parse and the tool's schema.
const argsEditor = new ArgsEditor($("args"), {
  label: "Arguments (JSON)",
  testid: "args-input",
  check: (text) => checkArgs(text, currentTool()?.input_schema as JsonSchema | undefined).problems,
  onChange: () => {
    validateArgs();
    renderForm();
  },
  onRun: () => runConsole(),
});

// ------------------------------------------------------------------ console

function currentTool(): ToolDefinition | undefined {
  return app.tools.get(toolSelect.value);
}

export function fillConsole(tool: string, args: Record<string, unknown> | null): void {
  if (app.tools.has(tool)) toolSelect.value = tool;
  renderToolInfo();
  const def = currentTool();
  argsEditor.setText(JSON.stringify(args ?? argsSkeleton(def?.input_schema), null, 2));
  validateArgs();
  renderForm();
}

export function renderToolInfo(): void {
  const def = currentTool();
  $("tool-desc").textContent = def ? def.description : "";
  const opt = optionalProps(def?.input_schema);
  $("tool-optional").textContent = opt.length > 0 ? `optional: ${opt.join(", ")}` : "";
  const warn = $("tool-hidden");
  const name = toolSelect.value;
  const hidden = app.ws !== null && name !== "" && !app.visible.includes(name);
  const st = app.toolStates.get(name);
  warn.hidden = !hidden;
  warn.textContent = hidden
    ? `${name} is hidden in state ${app.ws?.state}: ${st?.reason ?? "not offered now."}` +
      (st?.guidance ? ` ${st.guidance}` : "") +
      " Running it returns Blocked (with what to call instead)."
    : "";
  toolSelect.classList.toggle("unavailable", hidden);
  toolSelect.dataset.available = String(!hidden);
  if (hidden) toolSelect.setAttribute("aria-describedby", "tool-hidden");
  else toolSelect.removeAttribute("aria-describedby");
}

/** The argument form, from the tool's schema, showing what the JSON textarea holds. */
function renderForm(): void {
  const parsed = parseArgs(argsEditor.text);
  const schema = currentTool()?.input_schema as JsonSchema | undefined;
  $("args-form-wrap").replaceChildren(
    renderArgsForm(schema, parsed.ok ? parsed.value : null, (name, value) => {
      const now = parseArgs(argsEditor.text);
      if (!now.ok) return;
      const next = { ...now.value };
      if (value === undefined) delete next[name];
      else next[name] = value;
      argsEditor.setText(JSON.stringify(next, null, 2));
      validateArgs();
    }),
  );
}

/** The console's arguments checked against the selected tool's schema (ajv; src/schema.ts). */
function checkConsole(): CheckedArgs {
  return checkArgs(argsEditor.text, currentTool()?.input_schema as JsonSchema | undefined);
}

function validateArgs(): boolean {
  const checked = checkConsole();
  argsError.textContent = checked.ok ? "" : checked.problems.map((p) => p.message).join("; ");
  argsEditor.setInvalid(!checked.ok);
  argsEditor.relint(); // the schema may have changed with the tool
  updateRunEnabled();
  return checked.ok;
}

export function updateRunEnabled(): void {
  const checked = checkConsole();
  runButton.disabled = !checked.ok || app.busy || !app.ws || toolSelect.value === "";
  // Recreating the workspace while a call or a create is under way would free it under that call.
  for (const select of [modeSelect, localeSelect, styleSelect, sampleSelect, memoryToggle]) select.disabled = app.busy;
}

function runConsole(): void {
  const checked = checkConsole();
  if (!checked.ok || runButton.disabled) return;
  void run(toolSelect.value, checked.value);
}

export function renderQuick(): void {
  const quick = $("quick");
  quick.replaceChildren();
  const fill = (label: string, tool: string, args: Record<string, unknown> | null, testid: string) => {
    const b = h(
      "button",
      { type: "button", "data-testid": testid, title: `fill the console with ${tool}`, disabled: !app.tools.has(tool) },
      label,
    );
    b.addEventListener("click", () => fillConsole(`${tool}`, args));
    quick.append(b);
  };
  const act = (label: string, tool: string, args: Record<string, unknown>, testid: string, cls: string) => {
    const b = h("button", { type: "button", class: cls, "data-testid": testid, title: `run ${tool} now` }, label);
    b.addEventListener("click", () => void run(tool, args));
    quick.append(b);
  };
  const s = app.sample.suggested;
  const a = s.args as { old_text?: string; new_text?: string };
  const short = (t: string) => {
    const first = t.split("\n")[0] ?? "";
    return first.length > 40 ? `${first.slice(0, 39)}…` : first + (t.includes("\n") ? " ⏎…" : "");
  };
  fill(`${short(a.old_text ?? s.tool)} → ${short(a.new_text ?? "")}`, s.tool, s.args, "quick-suggested");
  (app.sample.extra ?? []).forEach((x, i) => fill(x.label, x.tool, x.args, `quick-extra-${i}`));
  fill("read", `${PREFIX}_read`, {}, "quick-read");
  fill("read lines 40–50", `${PREFIX}_read`, { start_line: 40, end_line: 50 }, "quick-read-range");
  fill("preview", `${PREFIX}_preview`, {}, "quick-preview");
  act("Commit", `${PREFIX}_commit`, { summary: "playground commit" }, "quick-commit", "ok");
  act("Revert", `${PREFIX}_revert`, { reason: "playground revert" }, "quick-revert", "bad");
}

toolSelect.addEventListener("change", () => fillConsole(toolSelect.value, null));
$("skeleton").addEventListener("click", () => fillConsole(toolSelect.value, null));
runButton.addEventListener("click", runConsole);
