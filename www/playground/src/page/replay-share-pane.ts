// The Replay pane and the share bar (src/replay-pane.ts draws them): a replay's workspace becomes
// the page's through the adopt command; a pane asks for a transcript to be played with a `play`
// action.
import { initReplayPane, initShareBar } from "../replay-pane";
import { $ } from "./dom";
import { watch, type PageCommands, type PageStore } from "./store";
import { t } from "../phrases";

export function mountReplayShare(store: PageStore, page: PageCommands): void {
  initShareBar($("share-bar"), { transcript: () => page.transcript() });
  const replayPane = initReplayPane($("replay"), {
    workspace: () => store.state.ws,
    callCount: () => store.state.history.length,
    busy: () => store.state.busy,
    adopt: (v) => page.adoptReplay(v),
    leave: () => {
      const sample = store.state.sample;
      return page.loadSample(sample, { notice: t("replay.left", { path: sample.path }) });
    },
  });
  watch(
    store,
    (s) => [s.replayRequest],
    (s) => {
      if (!s.replayRequest) return;
      ($("replay-details") as HTMLDetailsElement).open = true;
      void replayPane.load(s.replayRequest.transcript, s.replayRequest.source);
      $("replay-panel").scrollIntoView({ block: "start" });
    },
    false,
  );
}
