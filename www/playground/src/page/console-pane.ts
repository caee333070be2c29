// The Tool console: the tool select, its JSON arguments and form, Run, the quick buttons. It fills
// itself when a pane asks (`consoleFill` in the store) and runs calls through the page's commands.
import type { JsonSchema, ToolDefinition } from "../types";
import { argsSkeleton, checkArgs, optionalProps, parseArgs, type CheckedArgs } from "../schema";
import { ArgsEditor } from "../argseditor";
import { renderArgsForm } from "../form";
import { h } from "../render";
import { $ } from "./dom";
import { toolName, watch, type PageCommands, type PageState, type PageStore } from "./store";
import { t } from "../phrases";

export function mountConsole(store: PageStore, page: PageCommands): void {
  const toolSelect = $("tool-select") as HTMLSelectElement;
  const runButton = $("run") as HTMLButtonElement;
  const argsError = $("args-error");
  const state = (): PageState => store.state;

  // The console's raw JSON arguments (src/argseditor.ts): lint from JSON.parse and the tool's schema.
  const argsEditor = new ArgsEditor($("args"), {
    label: "console.args_label",
    testid: "args-input",
    check: (text) => checkArgs(text, currentTool()?.input_schema as JsonSchema | undefined).problems,
    onChange: () => {
      validateArgs();
      renderForm();
    },
    onRun: () => runConsole(),
  });

  function currentTool(): ToolDefinition | undefined {
    return state().tools.defs.get(toolSelect.value);
  }

  function fillConsole(tool: string, args: Record<string, unknown> | null): void {
    if (state().tools.defs.has(tool)) toolSelect.value = tool;
    renderToolInfo();
    const def = currentTool();
    argsEditor.setText(JSON.stringify(args ?? argsSkeleton(def?.input_schema), null, 2));
    validateArgs();
    renderForm();
  }

  function renderToolInfo(): void {
    const s = state();
    const def = currentTool();
    $("tool-desc").textContent = def ? def.description : "";
    const opt = optionalProps(def?.input_schema);
    $("tool-optional").textContent = opt.length > 0 ? t("console.optional", { names: opt.join(", ") }) : "";
    const warn = $("tool-hidden");
    const name = toolSelect.value;
    const hidden = s.ws !== null && name !== "" && !s.tools.visible.includes(name);
    const st = s.tools.byName.get(name);
    warn.hidden = !hidden;
    warn.textContent = hidden
      ? t("console.hidden", { name, state: s.ws?.state ?? "", reason: st?.reason ?? t("console.not_offered") }) +
        (st?.guidance ? ` ${st.guidance}` : "") +
        t("console.hidden_runs")
      : "";
    toolSelect.classList.toggle("unavailable", hidden);
    toolSelect.dataset.available = String(!hidden);
    if (hidden) toolSelect.setAttribute("aria-describedby", "tool-hidden");
    else toolSelect.removeAttribute("aria-describedby");
  }

  /** The tool select: the available tools, then the hidden ones in an optgroup (→ Blocked). */
  function renderToolSelect(s: PageState): void {
    if (!s.ws) return;
    const current = toolSelect.value;
    toolSelect.replaceChildren();
    for (const tool of s.tools.states.filter((x) => x.available)) {
      toolSelect.append(
        h("option", { value: tool.definition.name, title: tool.definition.description.split("\n")[0] }, tool.definition.name),
      );
    }
    const hidden = s.tools.states.filter((x) => !x.available);
    if (hidden.length > 0) {
      const group = h("optgroup", { label: t("console.hidden_group", { state: s.ws.state }) });
      for (const tool of hidden) {
        group.append(
          h(
            "option",
            {
              value: tool.definition.name,
              class: "unavailable",
              "data-available": "false",
              title: tool.reason ?? t("console.hidden_here"),
            },
            t("console.hidden_option", { name: tool.definition.name }),
          ),
        );
      }
      toolSelect.append(group);
    }
    if (current && s.tools.byName.has(current)) toolSelect.value = current;
    renderToolInfo();
  }

  /** The argument form, from the tool's schema, showing what the JSON editor holds. */
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

  function updateRunEnabled(): void {
    const s = state();
    runButton.disabled = !checkConsole().ok || s.busy || !s.ws || toolSelect.value === "";
  }

  function runConsole(): void {
    const checked = checkConsole();
    if (!checked.ok || runButton.disabled) return;
    void page.run(toolSelect.value, checked.value);
  }

  /** The quick buttons: the sample's calls and the common ones, under the page's tool prefix. */
  function renderQuick(s: PageState): void {
    const quick = $("quick");
    quick.replaceChildren();
    const fill = (label: string, tool: string, args: Record<string, unknown> | null, testid: string) => {
      const b = h(
        "button",
        { type: "button", "data-testid": testid, title: t("console.fill_title", { tool }), disabled: !s.tools.defs.has(tool) },
        label,
      );
      b.addEventListener("click", () => fillConsole(`${tool}`, args));
      quick.append(b);
    };
    const act = (label: string, tool: string, args: Record<string, unknown>, testid: string, cls: string) => {
      const b = h("button", { type: "button", class: cls, "data-testid": testid, title: t("console.run_title", { tool }) }, label);
      b.addEventListener("click", () => void page.run(tool, args));
      quick.append(b);
    };
    const tool = (verb: string) => toolName(s.options, verb);
    const suggested = s.sample.suggested;
    const a = suggested.args as { old_text?: string; new_text?: string };
    const short = (t: string) => {
      const first = t.split("\n")[0] ?? "";
      return first.length > 40 ? `${first.slice(0, 39)}…` : first + (t.includes("\n") ? " ⏎…" : "");
    };
    const suggestedTool = tool(suggested.verb);
    fill(`${short(a.old_text ?? suggestedTool)} → ${short(a.new_text ?? "")}`, suggestedTool, suggested.args, "quick-suggested");
    (s.sample.extra ?? []).forEach((x, i) => fill(t(x.label), tool(x.verb), x.args, `quick-extra-${i}`));
    fill(t("console.quick_read"), tool("read"), {}, "quick-read");
    fill(t("console.quick_read_range"), tool("read"), { start_line: 40, end_line: 50 }, "quick-read-range");
    fill(t("console.quick_preview"), tool("preview"), {}, "quick-preview");
    act(t("console.quick_commit"), tool("commit"), { summary: "playground commit" }, "quick-commit", "ok");
    act(t("console.quick_revert"), tool("revert"), { reason: "playground revert" }, "quick-revert", "bad");
  }

  toolSelect.addEventListener("change", () => fillConsole(toolSelect.value, null));
  $("skeleton").addEventListener("click", () => fillConsole(toolSelect.value, null));
  runButton.addEventListener("click", runConsole);

  // What the console derives from the store, in the order a create needs: the tools, the quick
  // buttons of the new workspace, a fill asked for, and after every call or create the tool's
  // note and Run.
  watch(store, (s) => [s.tools], renderToolSelect, false);
  watch(
    store,
    (s) => [s.ws],
    (s) => s.ws && renderQuick(s),
    false,
  );
  watch(
    store,
    (s) => [s.consoleFill],
    (s) => {
      if (!s.consoleFill) return;
      fillConsole(s.consoleFill.tool, s.consoleFill.args);
      if (s.consoleFill.focus) toolSelect.focus();
    },
    false,
  );
  watch(store, (s) => [s.revs.workspace], renderToolInfo, false);
  watch(store, (s) => [s.revs.workspace, s.busy, s.ws], updateRunEnabled);
}
