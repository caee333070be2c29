# The peers' real code, called from the benchmark (bench/edits/src/real/real.mjs). Runs inside a
# venv made by bench/edits/src/real/install.mjs (under target/editbench-peers/); nothing from the
# peers is copied into this repository. One JSON request per line in, one JSON answer per line
# out (stdin and stdout, or the two named pipes given as --in PATH --out PATH):
#   {"peer": "AI" | "OH", "name": "file.py", "doc": "...", "old_text": "...", "new_text": "..."}
#   -> {"kind": "applied" | "error", "doc": "...", "message": "..."}
# AI: aider-chat's editblock_coder module, loaded with its package's __init__ and base_coder left
#   out (they import the model clients): the model's reply is written in aider's own format (a
#   file name, a fence, a SEARCH/REPLACE block), parsed by aider's find_original_update_blocks and
#   applied by EditBlockCoder.apply_edits (its do_replace, its other-files fallback over the files
#   in the chat, its failure text). The io object is a stand-in with aider's default read and
#   write: utf-8, text mode, platform newline.
# OH: openhands-aci's OHEditor, command "str_replace", linting off (its default).
import importlib.util
import json
import logging
import os
import sys
import tempfile
import types
from pathlib import Path

WORK = tempfile.mkdtemp(prefix="editbench-real-")
logging.disable(logging.CRITICAL)  # openhands-aci's dependencies log every file they sniff


def load_aider():
    import aider

    base = Path(aider.__file__).parent / "coders"
    pkg = types.ModuleType("aider.coders")
    pkg.__path__ = [str(base)]
    sys.modules["aider.coders"] = pkg
    bc = types.ModuleType("aider.coders.base_coder")

    class Coder:  # the base class only gives EditBlockCoder its name here
        pass

    bc.Coder = Coder
    sys.modules["aider.coders.base_coder"] = bc
    spec = importlib.util.spec_from_file_location("aider.coders.editblock_coder", base / "editblock_coder.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


class AiderIO:
    def read_text(self, filename, silent=False):
        with open(str(filename), "r", encoding="utf-8") as f:
            return f.read()

    def write_text(self, filename, content):
        with open(str(filename), "w", encoding="utf-8", newline=None) as f:
            f.write(content)


def aider_apply(eb, path, old, new):
    fence = ("`" * 3, "`" * 3)
    name = path.name
    block = lambda s: s if s == "" or s.endswith("\n") else s + "\n"
    reply = f"{name}\n{fence[0]}\n<<<<<<< SEARCH\n{block(old)}=======\n{block(new)}>>>>>>> REPLACE\n{fence[1]}\n"
    coder = eb.EditBlockCoder.__new__(eb.EditBlockCoder)
    coder.fence = fence
    coder.io = AiderIO()
    coder.root = str(path.parent)
    coder.abs_fnames = {str(path)}
    coder.abs_root_path = lambda p: str(Path(coder.root) / p)
    coder.get_rel_fname = lambda p: os.path.relpath(p, coder.root)
    coder.get_inchat_relative_files = lambda: [name]
    coder.partial_response_content = reply
    coder.shell_commands = []
    try:
        edits = coder.get_edits()
        coder.apply_edits(edits)
    except ValueError as e:
        return "error", e.args[0]
    return "applied", f"Applied edit to {name}"


def oh_apply(editor, ToolError, path, old, new):
    try:
        r = editor(command="str_replace", path=str(path), old_str=old, new_str=new)
    except ToolError as e:
        return "error", e.message
    return "applied", r.output


def main():
    args = sys.argv[1:]
    src, dst = sys.stdin, sys.stdout
    if "--in" in args:
        i = args.index("--in")
        src = open(args[i + 1], "r", encoding="utf-8")
        args = args[:i] + args[i + 2 :]
    if "--out" in args:
        i = args.index("--out")
        dst = open(args[i + 1], "w", encoding="utf-8")
        args = args[:i] + args[i + 2 :]
    peers = set(args)
    eb = load_aider() if "AI" in peers else None
    if "OH" in peers:
        from openhands_aci.editor.editor import OHEditor
        from openhands_aci.editor.exceptions import ToolError

        editor = OHEditor()
    dst.write(json.dumps({"ready": sorted(peers)}) + "\n")
    dst.flush()
    for line in src:
        req = json.loads(line)
        d = Path(tempfile.mkdtemp(dir=WORK))
        path = d / req["name"]
        path.write_bytes(req["doc"].encode("utf-8"))
        try:
            if req["peer"] == "AI":
                kind, msg = aider_apply(eb, path, req["old_text"], req["new_text"])
            else:
                kind, msg = oh_apply(editor, ToolError, path, req["old_text"], req["new_text"])
        except Exception as e:  # a crash of the peer's code is an error the model sees
            kind, msg = "error", f"{type(e).__name__}: {e}"
        doc = path.read_bytes().decode("utf-8")
        path.unlink()
        d.rmdir()
        msg = msg.replace(str(d) + os.sep, "")
        dst.write(json.dumps({"kind": kind, "doc": doc, "message": msg}) + "\n")
        dst.flush()


if __name__ == "__main__":
    main()
