#!/usr/bin/env bash
# Walks the real terminal app through `npm run demo` inside tmux, typing as an operator would, and saves the screen
# text of each step to a folder (default .tmp/tmux-walk/). Every setting comes filled in from the demo: Enter on each
# screen and y at the question run the push. Needs tmux (Debian: apt-get install -y tmux).
#   scripts/tmux-walk.sh [output-folder] [columns] [rows]      (default 80 24)
set -euo pipefail

cd "$(dirname "$0")/.."
out="${1:-.tmp/tmux-walk}"
columns="${2:-80}"
rows="${3:-24}"
session="core-migrate-walk-$$"
mkdir -p "$out"
rm -f "$out"/*.txt

command -v tmux >/dev/null || { echo "tmux is not installed (Debian: apt-get install -y tmux)" >&2; exit 2; }

cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; }
trap cleanup EXIT

# A slow sandbox (400 ms a request, concurrency 1) keeps the push screen up long enough to be captured.
# NO_COLOR is passed on: with it set, the text cursor shows as ▏ in the saved screens (inverse video does not
# survive capture-pane's plain text).
tmux new-session -d -s "$session" -x "$columns" -y "$rows" \
  "NO_COLOR='${NO_COLOR:-}' CORE_MIGRATE_DEMO_LATENCY_MS=400 CORE_MIGRATE_DEMO_CONCURRENCY=1 npm run --silent demo; echo '[demo exited]'; sleep 600"

screen() { tmux capture-pane -p -t "$session"; }

# Waits until the screen shows a text, or fails with the last screen.
wait_for() {
  local text="$1" seconds="${2:-30}"
  for _ in $(seq $((seconds * 10))); do
    if screen | grep -qF -- "$text"; then return 0; fi
    sleep 0.1
  done
  echo "timed out waiting for: $text" >&2
  screen >&2
  exit 1
}

save() { screen >"$out/$1.txt"; echo "saved $out/$1.txt"; }

# Keys one at a time, with a pause, as a person types.
keys() { for key in "$@"; do tmux send-keys -t "$session" "$key"; sleep 0.25; done; }
type_text() { tmux send-keys -t "$session" -l "$1"; sleep 0.3; }

wait_for 'Where is the core?' 60
save 1-connect
keys Enter
wait_for 'Which export holds the users?'
wait_for 'detected: firebase-json'
save 2-source

keys Enter
wait_for 'Hash families in the file'
# The known-password check: a wrong password first, then the right one.
keys Down Down
type_text 'ada@example.com'
keys Down
type_text 'not-her-password'
keys Enter
wait_for 'does NOT match'
save 3-hashes-wrong-password
keys C-u
type_text 'analytical-engine'
keys Enter
wait_for 'the password matches'
save 3-hashes
keys C-g
wait_for 'Help: Hashes'
save 3-hashes-help
keys Escape

keys Up Up Up Enter
wait_for 'What a migrated user keeps'
save 4-identity
keys Enter
wait_for 'Nothing is sent until you confirm.'
save 5-review
keys Up Enter
wait_for 'records not imported, by reason'
save 5-review-report
keys Escape Down Enter
wait_for '(y/n)'
save 5-review-confirm
keys y

wait_for 'concurrency 1' 30
sleep 1.5
save 6-push
keys p
wait_for 'PAUSED' 10
save 6-push-paused
keys p

wait_for 'Push finished.' 60
save 7-summary
keys q
wait_for '[demo exited]'
save 8-after-exit
# The sample folder held the signer key and known passwords: the demo removes it when it ends.
folder=$(grep -o '/tmp/core-migrate-demo-[A-Za-z0-9]*' "$out/8-after-exit.txt" | head -n 1)
if [ -n "$folder" ] && [ -e "$folder" ]; then echo "the demo left $folder behind" >&2; exit 1; fi
echo "every step passed; screens in $out"
