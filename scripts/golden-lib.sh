# Shared by scripts/record-golden-format*.sh: `source scripts/golden-lib.sh N` starts the
# shipped local LLM server (zero latency) for this shell, sets URL, and defines
# `run NAME ARGS...`, which writes replays/golden/NAME-v0.1-formatN.ndjson.gz. It stops at once
# when the built engine writes another log format than N (the logs would be misnamed).
set -euo pipefail
FORMAT=$1
G="node bin/grapevine.mjs"
OUT=replays/golden
WRITES=$(node -e "import('./dist/src/replay/log-format.js').then((m) => console.log(m.LOG_FORMAT))")
if [ "$WRITES" != "grapevine-log/$FORMAT" ]; then
  echo "record-golden: the built engine writes $WRITES, not grapevine-log/$FORMAT; these logs are recorded by the engine version that wrote that format (check it out and build it first)" >&2
  exit 2
fi
PORT=${PORT:-18987}
$G serve-llm --port "$PORT" --latency-ms 0 >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 2
URL="http://127.0.0.1:$PORT/v1"
run() { local name=$1; shift; $G run "$@" --out "$OUT/$name-v0.1-format$FORMAT.ndjson.gz" --force --quiet; }
