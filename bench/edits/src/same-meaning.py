# Does a tool's output document mean the same as the expected one? Reads JSON
# {"lang": "py"|"yml", "expected": str, "result": str} on stdin, prints one word:
#   same      both parse and are equal (Python: ast.dump; YAML: the loaded data)
#   differ    both parse, to something else
#   invalid   the result no longer parses
#   unknown   the expected document itself does not parse (the caller falls back to text rules)
# The scorer calls it only for outputs that differ from the expected document inside the target.
import ast, json, sys
import yaml

def load(lang, text):
    if lang == "py":
        return ast.dump(ast.parse(text))
    return yaml.safe_load_all(text) and list(yaml.safe_load_all(text))

req = json.load(sys.stdin)
try:
    want = load(req["lang"], req["expected"])
except Exception:
    print("unknown"); sys.exit(0)
try:
    got = load(req["lang"], req["result"])
except Exception:
    print("invalid"); sys.exit(0)
print("same" if got == want else "differ")
