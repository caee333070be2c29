// Copies the benchmark's documents from packages installed on the machine into bench/edits/docs/
// and writes docs/SOURCES.tsv (file, origin, package@version, licence, sha256, transformation).
// Run once by hand (`node tools/collect-docs.mjs [--set v2]`; v2's documents go to docs-v2/, a
// separate pool so that the test set shares no file with the development set); the copied files
// are committed, so the
// benchmark never depends on what a machine has installed. Each licence is read from the
// package's own metadata (package.json, Cargo.toml, Python METADATA/PKG-INFO, Debian copyright);
// a file whose licence is copyleft or unknown is refused.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { homedir } from "node:os";

const HERE = dirname(new URL(import.meta.url).pathname);
const SET = process.argv.includes("--set") ? process.argv[process.argv.indexOf("--set") + 1] : "v1";
const OUT = join(HERE, "..", SET === "v1" ? "docs" : `docs-${SET}`);
const WWW = join(HERE, "..", "..", "..", "www", "node_modules");
const CARGO = join(homedir(), ".cargo/registry/src", readdirSync(join(homedir(), ".cargo/registry/src"))[0]);
const NPM = "/usr/lib/node_modules/npm/node_modules";
const PY = "/usr/lib/python3/dist-packages";

/** [stored name, origin path, transformation or ""] */
const LIST = [
  // tab-indented JavaScript
  ["js-tab-debug-common.js", `${NPM}/debug/src/common.js`],
  ["js-tab-debug-browser.js", `${NPM}/debug/src/browser.js`],
  ["js-tab-debug-node.js", `${NPM}/debug/src/node.js`],
  ["js-tab-p-map.js", `${NPM}/p-map/index.js`],
  ["js-tab-chalk.js", `${NPM}/chalk/source/index.js`],
  ["js-tab-supports-color.js", `${NPM}/supports-color/index.js`],
  ["js-tab-cssesc.js", `${NPM}/cssesc/cssesc.js`],
  ["js-tab-env-paths.js", `${NPM}/env-paths/index.js`],
  // space-indented JavaScript
  ["js-semver-range.js", `${NPM}/semver/classes/range.js`],
  ["js-cmd-shim.js", `${NPM}/cmd-shim/lib/index.js`],
  ["js-ini.js", `${NPM}/ini/lib/ini.js`],
  ["js-npa.js", `${NPM}/npm-package-arg/lib/npa.js`],
  ["js-hosted-git-info.js", `${NPM}/hosted-git-info/lib/index.js`],
  // Rust: real CRLF files, one converted to CRLF, and LF files
  ["rs-crlf-tinytemplate-compiler.rs", `${CARGO}/tinytemplate-1.2.1/src/compiler.rs`],
  ["rs-crlf-mime-guess.rs", `${CARGO}/mime_guess-2.0.5/src/lib.rs`],
  ["rs-crlf-tinytemplate-instruction.rs", `${CARGO}/tinytemplate-1.2.1/src/instruction.rs`],
  ["rs-crlf-heck.rs", `${CARGO}/heck-0.5.0/src/lib.rs`, "crlf"],
  ["rs-fnv.rs", `${CARGO}/fnv-1.0.7/lib.rs`],
  ["rs-itoa.rs", `${CARGO}/itoa-1.0.19/src/lib.rs`],
  ["rs-anyhow-error.rs", `${CARGO}/anyhow-1.0.105/src/error.rs`],
  ["rs-base64-engine.rs", `${CARGO}/base64-0.22.1/src/engine/mod.rs`],
  ["rs-either.rs", `${CARGO}/either-1.19.0/src/lib.rs`],
  ["rs-log-macros.rs", `${CARGO}/log-0.4.35/src/macros.rs`],
  ["rs-semver-parse.rs", `${CARGO}/semver-1.0.28/src/parse.rs`],
  ["rs-semver-identifier.rs", `${CARGO}/semver-1.0.28/src/identifier.rs`],
  ["rs-walkdir-dent.rs", `${CARGO}/walkdir-2.5.0/src/dent.rs`],
  ["rs-walkdir-error.rs", `${CARGO}/walkdir-2.5.0/src/error.rs`],
  ["rs-serde-json-error.rs", `${CARGO}/serde_json-1.0.154/src/error.rs`],
  ["rs-serde-json-map.rs", `${CARGO}/serde_json-1.0.154/src/map.rs`],
  // Python
  ["py-pyparsing-helpers.py", `${PY}/pyparsing/helpers.py`],
  ["py-pyparsing-util.py", `${PY}/pyparsing/util.py`],
  ["py-pyparsing-exceptions.py", `${PY}/pyparsing/exceptions.py`],
  ["py-distro.py", `${PY}/distro/distro.py`],
  ["py-blinker-base.py", `${PY}/blinker/base.py`],
  ["py-oauthlib-parameters.py", `${PY}/oauthlib/oauth2/rfc6749/parameters.py`],
  ["py-yaml-constructor.py", `${PY}/yaml/constructor.py`],
  ["py-pygments-configs.py", `${PY}/pygments/lexers/configs.py`],
  ["py-pygments-ruby.py", `${PY}/pygments/lexers/ruby.py`],
  ["py-httplib2-auth.py", `${PY}/httplib2/auth.py`],
  // Markdown (curly quotes, em dashes, long prose lines)
  ["md-gyp-input-format.md", `${NPM}/node-gyp/gyp/docs/InputFormatReference.md`],
  ["md-safer-buffer-porting.md", `${NPM}/safer-buffer/Porting-Buffer.md`],
  ["md-rustix-readme.md", `${CARGO}/rustix-1.1.6/README.md`],
  ["md-syn-readme.md", `${CARGO}/syn-2.0.119/README.md`],
  ["md-half-readme.md", `${CARGO}/half-2.7.1/README.md`],
  ["md-anyhow-readme.md", `${CARGO}/anyhow-1.0.105/README.md`],
  ["md-log-changelog.md", `${CARGO}/log-0.4.35/CHANGELOG.md`],
  ["md-node-url.md", "/usr/share/doc/nodejs/api/url.md"],
  ["md-node-path.md", "/usr/share/doc/nodejs/api/path.md"],
  ["md-node-string-decoder.md", "/usr/share/doc/nodejs/api/string_decoder.md"],
  // YAML
  ["yml-log-main.yml", `${CARGO}/log-0.4.35/.github/workflows/main.yml`],
  ["yml-ureq-test.yml", `${CARGO}/ureq-3.5.2/.github/workflows/test.yml`],
  ["yml-itertools-ci.yml", `${CARGO}/itertools-0.13.0/.github/workflows/ci.yml`],
  ["yml-unicode-ident-ci.yml", `${CARGO}/unicode-ident-1.0.27/.github/workflows/ci.yml`],
  ["yml-num-cpus-ci.yml", `${CARGO}/num_cpus-1.17.0/.github/workflows/ci.yml`],
  ["yml-errno-main.yml", `${CARGO}/errno-0.3.15/.github/workflows/main.yml`],
  // JSON
  ["json-spdx-license-ids.json", `${NPM}/spdx-license-ids/index.json`],
  ["json-ci-info-vendors.json", `${NPM}/ci-info/vendors.json`],
  ["json-idna-punycode-tests.json", `${CARGO}/idna-1.1.0/tests/punycode_tests.json`],
  ["json-jsonparse-basic.json", `${NPM}/jsonparse/samplejson/basic.json`],
  // CJK (in JSON tables; CJK prose documents are written inline in the hand-written cases)
  ["json-cjk-iconv-big5-added.json", `${NPM}/iconv-lite/encodings/tables/big5-added.json`],
  // CJK prose: nothing on the machine has any, so two short documents are written for the benchmark
  ["zh-authored-guide.md", "authored"],
  ["ja-authored-notes.md", "authored"],
];

// The test set's documents: none is a file of v1 (nor another version of one), chosen for the
// same kinds (tab and space JavaScript, Python, Rust with CRLF, Markdown with typographic
// punctuation, YAML, JSON, CJK) plus the kinds v1 lacked: HTML with entities and a Makefile.
const LIST_V2 = [
  ["js-tab-hono-context.js", `${WWW}/hono/dist/context.js`],
  ["js-tab-hono-request.js", `${WWW}/hono/dist/request.js`],
  ["js-tab-hono-trie-node.js", `${WWW}/hono/dist/router/trie-router/node.js`],
  ["js-tab-hono-ssg.js", `${WWW}/hono/dist/helper/ssg/ssg.js`],
  ["js-tab-hono-client.js", `${WWW}/hono/dist/client/client.js`],
  ["js-tab-extend.js", `${WWW}/extend/index.js`],
  ["js-tab-side-channel-list.js", `${WWW}/side-channel-list/index.js`],
  ["js-fs-minipass.js", `${NPM}/fs-minipass/lib/index.js`],
  ["js-ignore-walk.js", `${NPM}/ignore-walk/lib/index.js`],
  ["js-npm-pick-manifest.js", `${NPM}/npm-pick-manifest/lib/index.js`],
  ["js-write-file-atomic.js", `${NPM}/write-file-atomic/lib/index.js`],
  ["js-negotiator-media-type.js", `${NPM}/negotiator/lib/mediaType.js`],
  ["py-xmltodict.py", `${PY}/xmltodict.py`],
  ["py-toml-decoder.py", `${PY}/toml/decoder.py`],
  ["py-toml-encoder.py", `${PY}/toml/encoder.py`],
  ["py-jwt-api-jws.py", `${PY}/jwt/api_jws.py`],
  ["py-pygments-html-formatter.py", `${PY}/pygments/formatters/html.py`],
  ["py-pyparsing-results.py", `${PY}/pyparsing/results.py`],
  ["rs-crlf-generic-array.rs", `${CARGO}/generic-array-0.14.7/src/lib.rs`],
  ["rs-crlf-generic-array-sequence.rs", `${CARGO}/generic-array-0.14.7/src/sequence.rs`],
  ["rs-crlf-nu-ansi-term.rs", `${CARGO}/nu-ansi-term-0.50.3/src/ansi.rs`],
  ["rs-crlf-crc32fast.rs", `${CARGO}/crc32fast-1.5.0/src/lib.rs`, "crlf"],
  ["rs-hex.rs", `${CARGO}/hex-0.4.3/src/lib.rs`],
  ["rs-httpdate-date.rs", `${CARGO}/httpdate-1.0.3/src/date.rs`],
  ["rs-equivalent.rs", `${CARGO}/equivalent-1.0.2/src/lib.rs`],
  ["md-ip-address-readme.md", `${WWW}/ip-address/README.md`],
  ["md-rustversion-readme.md", `${CARGO}/rustversion-1.0.23/README.md`],
  ["md-aho-corasick-readme.md", `${CARGO}/aho-corasick-1.1.5/README.md`],
  ["md-node-querystring.md", "/usr/share/doc/nodejs/api/querystring.md"],
  ["md-node-tty.md", "/usr/share/doc/nodejs/api/tty.md"],
  ["md-node-timers.md", "/usr/share/doc/nodejs/api/timers.md"],
  ["yml-aho-corasick-ci.yml", `${CARGO}/aho-corasick-1.1.5/.github/workflows/ci.yml`],
  ["yml-byteorder-ci.yml", `${CARGO}/byteorder-1.5.0/.github/workflows/ci.yml`],
  ["yml-http-ci.yml", `${CARGO}/http-1.5.0/.github/workflows/ci.yml`],
  ["yml-httparse-ci.yml", `${CARGO}/httparse-1.10.1/.github/workflows/ci.yml`],
  ["json-protobuf-type.json", `${WWW}/protobufjs/google/protobuf/type.json`],
  ["json-binary-extensions.json", `${NPM}/binary-extensions/binary-extensions.json`],
  ["mk-bzip2.mk", `${CARGO}/bzip2-sys-0.1.13+1.0.8/bzip2-1.0.8/Makefile`, "", "bzip2 licence (BSD-style; LICENSE beside the Makefile)"],
  ["mk-xz-dos.mk", `${CARGO}/lzma-sys-0.1.20/xz-5.2/dos/Makefile`, "", "0BSD-equivalent public domain (xz COPYING)"],
  ["html-authored-release-notes.html", "authored"],
  ["zh-authored-faq.md", "authored"],
  ["ja-authored-changelog.md", "authored"],
];

const ALLOWED = /^\(?(MIT|ISC|BSD|Apache|PSF|Python|0BSD|Unlicense|Zlib|CC0|bzip2)/i;
const COPYLEFT = /GPL|AGPL|LGPL|MPL|EPL|CDDL|copyleft/i;

/** { pkg, version, licence } from the nearest package metadata above `file`. */
function metadata(file) {
  if (file.startsWith(CARGO)) {
    const crateDir = join(CARGO, file.slice(CARGO.length + 1).split("/")[0]);
    const toml = readFileSync(join(crateDir, "Cargo.toml"), "utf8");
    const name = toml.match(/^name = "([^"]+)"/m)[1];
    const version = toml.match(/^version = "([^"]+)"/m)[1];
    const licence = toml.match(/^license = "([^"]+)"/m)?.[1];
    return { pkg: `${name}@${version} (crates.io)`, licence };
  }
  if (file.startsWith(PY)) {
    const top = file.slice(PY.length + 1).split("/")[0].replace(/\.py$/, "");
    const infos = readdirSync(PY).filter((d) => /\.(dist|egg)-info$/.test(d));
    const aliases = { yaml: "PyYAML", jwt: "PyJWT" };
    const want = (aliases[top] ?? top).toLowerCase();
    const info = infos.find((d) => d.toLowerCase().startsWith(`${want}-`));
    if (!info) return { pkg: top, licence: undefined };
    const metaFile = existsSync(join(PY, info, "METADATA")) ? join(PY, info, "METADATA") : join(PY, info, "PKG-INFO");
    const meta = readFileSync(metaFile, "utf8");
    const version = meta.match(/^Version: (.+)$/m)[1].trim();
    let licence = meta.match(/^License: (.+)$/m)?.[1].trim();
    const classifier = meta.match(/^Classifier: License :: OSI Approved :: (.+)$/m)?.[1].trim();
    if (!licence || licence === "UNKNOWN" || licence.length > 40) licence = classifier;
    return { pkg: `${meta.match(/^Name: (.+)$/m)[1].trim()}@${version} (Debian python3)`, licence };
  }
  if (file.startsWith("/usr/share/doc/nodejs/")) {
    const copyright = readFileSync("/usr/share/doc/nodejs/copyright", "utf8");
    const mit = /Permission is hereby granted, free of charge/.test(copyright.slice(0, 2000));
    return { pkg: `node@${process.versions.node} docs (Debian nodejs)`, licence: mit ? "MIT" : undefined };
  }
  let dir = dirname(file);
  while (dir !== "/") {
    const pj = join(dir, "package.json");
    if (existsSync(pj)) {
      const p = JSON.parse(readFileSync(pj, "utf8"));
      if (p.name && p.version) {
        const licence = typeof p.license === "string" ? p.license : p.license?.type;
        return { pkg: `${p.name}@${p.version} (npm${file.startsWith(NPM) ? ", bundled with Debian npm" : ""})`, licence };
      }
    }
    dir = dirname(dir);
  }
  return { pkg: "?", licence: undefined };
}

mkdirSync(OUT, { recursive: true });
const rows = [["file", "origin", "package", "licence", "sha256", "transformation"].join("\t")];
const CHOSEN = SET === "v1" ? LIST : LIST_V2;
for (const [name, origin, transform = "", licenceOverride] of CHOSEN) {
  if (origin === "authored") {
    const bytes = readFileSync(join(OUT, name));
    const sha = createHash("sha256").update(bytes).digest("hex");
    rows.push([name, "written for this benchmark", "agentpad (this repository)", "MIT OR Apache-2.0", sha, "none (authored)"].join("\t"));
    continue;
  }
  const meta = metadata(origin);
  const pkg = meta.pkg;
  // A file vendored inside a crate carries its own upstream licence, stated by hand.
  const licence = licenceOverride ?? meta.licence;
  if (!licence || COPYLEFT.test(licence) || !ALLOWED.test(licence)) {
    throw new Error(`${origin}: licence ${JSON.stringify(licence)} is not an allowed permissive licence`);
  }
  let bytes = readFileSync(origin);
  let note = transform;
  if (transform === "crlf") {
    if (bytes.includes(13)) throw new Error(`${origin} already has CR bytes`);
    bytes = Buffer.from(bytes.toString("utf8").replace(/\n/g, "\r\n"), "utf8");
    note = "line endings converted LF -> CRLF";
  }
  if (bytes.length < 1500 || bytes.length > 70_000) throw new Error(`${origin}: ${bytes.length} bytes is outside 1.5-70 KB`);
  writeFileSync(join(OUT, name), bytes);
  const sha = createHash("sha256").update(bytes).digest("hex");
  const shown = origin.replace(homedir(), "~");
  rows.push([name, shown, pkg, licence, sha, note || "none (verbatim)"].join("\t"));
  console.log(`${name}\t${bytes.length}\t${licence}`);
}
writeFileSync(join(OUT, "SOURCES.tsv"), rows.join("\n") + "\n");
console.log(`${CHOSEN.length} documents`);
void basename;
