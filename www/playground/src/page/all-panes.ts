// Renders every pane from `app` (after a call, a create or a replay).
import { memoryBytes } from "@agentpad/core";
import { $, app } from "./state";
import { renderToolInfo, updateRunEnabled } from "./console-pane";
import { renderWorkflowPanel } from "./workflow-pane";
import { renderDocPanel } from "./document-pane";
import { renderPendingPanel } from "./pending-pane";
import { renderResponsePanel } from "./response-pane";
import { renderLiveContextPane } from "./live-context-pane";
import { renderTaskTreePane } from "./task-tree-pane";
import { renderTokenMeterPane } from "./token-meter-pane";
import { renderMemoryPane } from "./memory-pane";

export function renderAll(): void {
  const ws = app.ws;
  $("workflow-state").textContent = ws ? ws.state : "–";
  $("workflow-state").dataset.state = ws ? ws.state : "";
  try {
    const bytes = memoryBytes();
    $("memory-meter").textContent = `${(bytes / 1024).toFixed(0)} KiB`;
  } catch {
    $("memory-meter").textContent = "–";
  }
  renderWorkflowPanel();
  renderDocPanel();
  renderPendingPanel();
  renderResponsePanel();
  renderContextPanes();
  renderToolInfo();
  updateRunEnabled();
}

export function renderContextPanes(): void {
  renderLiveContextPane();
  renderTaskTreePane();
  renderTokenMeterPane();
  renderMemoryPane();
}
