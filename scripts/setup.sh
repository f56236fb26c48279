#!/usr/bin/env bash
# Installs everything Switchyard needs on a Debian or Ubuntu machine, then installs and builds the project.
#   scripts/setup.sh          what running Switchyard needs (compilers for the native modules, libsecret)
#   scripts/setup.sh --test   also what the tests need (D-Bus and gnome-keyring for the real keychain, Chromium,
#                             PostgreSQL: tests start throwaway clusters of their own with its programs; Prometheus,
#                             whose server scrapes the gateway's metrics in their tests)
# System packages are installed only when missing, as root or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=false
for argument in "$@"; do
  case "$argument" in
    --test) with_tests=true ;;
    *) echo "setup: unknown argument $argument (use --test)" >&2; exit 2 ;;
  esac
done

packages=(build-essential python3 pkg-config libsecret-1-dev)
if $with_tests; then
  packages+=(dbus dbus-x11 gnome-keyring chromium fonts-liberation postgresql python3-venv prometheus)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done

if ((${#missing[@]} > 0)); then
  if ! command -v apt-get >/dev/null; then
    echo "setup: please install these packages with your system's package manager: ${missing[*]}" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    echo "setup: these Debian packages are missing and neither root nor sudo is available: ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Node.js: the machine's own when it is new enough (package.json "engines"), otherwise the version named in .nvmrc
# from the npm registry's `node-<platform>-<arch>` package (the official binary and its headers) into .runtime/.
# npm then runs on it, native modules build against its headers, and node_modules/.bin/node points at it, so every
# npm script (start, test, bench) runs on it too.
runtime_dir="$PWD/.runtime"
# The same rule the switchyard command checks at start (bin/runtime-check.js reads "engines").
runtime_check='import { minimumNode, runtimeProblem } from "./bin/runtime-check.js";
process.exit(runtimeProblem(process.versions.node, minimumNode(), null) === null ? 0 : 1);'
if node --input-type=module -e "$runtime_check" 2>/dev/null; then
  # A runtime of an earlier setup, and the link npm scripts found it by, are no longer needed.
  rm -rf "$runtime_dir"
  if [ -L node_modules/.bin/node ]; then rm node_modules/.bin/node; fi
else
  wanted_node=$(tr -d ' \n' <.nvmrc)
  if [ "$("$runtime_dir/bin/node" --version 2>/dev/null)" != "v$wanted_node" ]; then
    case "$(uname -m)" in
      x86_64) arch=x64 ;;
      aarch64 | arm64) arch=arm64 ;;
      *) echo "setup: no Node.js $wanted_node package for $(uname -m); install the Node.js package.json's engines name yourself" >&2; exit 1 ;;
    esac
    echo "setup: Node.js $(node --version 2>/dev/null || echo 'is missing') is older than package.json's engines allow; installing Node.js $wanted_node into .runtime/"
    download=$(mktemp -d)
    (cd "$download" && npm pack --silent "node-linux-$arch@$wanted_node" >/dev/null)
    rm -rf "$runtime_dir" && mkdir -p "$runtime_dir"
    tar -xzf "$download"/node-linux-"$arch"-*.tgz -C "$runtime_dir" --strip-components=1
    rm -rf "$download"
  fi
  export PATH="$runtime_dir/bin:$PATH"
  export npm_config_nodedir="$runtime_dir"
fi

# `npm install` follows package-lock.json and runs `prepare`, which builds dist/. Not `npm ci`: registry
# mirrors that carry only this platform's optional binaries (rollup's, esbuild's) make `npm ci` reject the lock.
# Without --test, only what running and building Switchyard needs: the test tools and the client SDKs the tests
# drive it with belong to the `test/toolkit` workspace.
if $with_tests; then
  npm install --no-audit --no-fund
else
  npm install --no-audit --no-fund --workspaces=false
fi
if [ -x "$runtime_dir/bin/node" ]; then
  ln -sfn ../../.runtime/bin/node node_modules/.bin/node
fi

# The Python clients the tests drive the gateway with (official SDKs), in a virtualenv of the project's own,
# remade when test/python/requirements.txt changes.
if $with_tests; then
  requirements=test/python/requirements.txt
  stamp=.venv-test/requirements.sha256
  wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    rm -rf .venv-test
    python3 -m venv .venv-test
    .venv-test/bin/pip install --quiet --disable-pip-version-check --retries 0 -r "$requirements"
    echo "$wanted" >"$stamp"
  fi
fi

next=$($with_tests && echo 'npm test' || echo 'npm start')
if [ -x "$runtime_dir/bin/node" ]; then
  echo "setup: done. Next: $next (Node.js $("$runtime_dir/bin/node" --version) is in .runtime/; for your shell: export PATH=\"$runtime_dir/bin:\$PATH\")"
else
  echo "setup: done. Next: $next"
fi
