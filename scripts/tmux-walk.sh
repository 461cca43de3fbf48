#!/usr/bin/env bash
# Walks the real terminal app through `npm run demo` inside tmux (80x24), typing as an operator would, and saves
# the screen text of each step to a folder (default .tmp/tmux-walk/). Needs tmux (Debian: apt-get install -y tmux).
#   scripts/tmux-walk.sh [output-folder]
set -euo pipefail

cd "$(dirname "$0")/.."
out="${1:-.tmp/tmux-walk}"
session="core-migrate-walk-$$"
mkdir -p "$out"
rm -f "$out"/*.txt

command -v tmux >/dev/null || { echo "tmux is not installed (Debian: apt-get install -y tmux)" >&2; exit 2; }

cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; }
trap cleanup EXIT

# A slow sandbox (400 ms a request, concurrency 1 below) keeps the push screen up long enough to be captured.
# NO_COLOR is passed on: with it set, the text cursor shows as ▏ in the saved screens (inverse video does not
# survive capture-pane's plain text).
tmux new-session -d -s "$session" -x 80 -y 24 \
  "NO_COLOR='${NO_COLOR:-}' CORE_MIGRATE_DEMO_LATENCY_MS=400 npm run --silent demo; echo '[demo exited]'; sleep 600"

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

wait_for 'Enter check connection' 60
keys Enter
wait_for 'Enter continue'
save 1-connect

keys Enter
wait_for '[2 Source]'
# The cursor walks back over ".json"; Backspace takes the "s" before it and Delete the "." after it, typing puts
# both back, and End returns: the path is as it was (or the plan below cannot read it).
keys Left Left Left Left Left
wait_for '←→ Home End cursor'
save 2-source-cursor
keys BSpace DC
type_text 's.'
keys End Enter
wait_for '✓ 14 records'
save 2-source

keys Enter
wait_for '[3 Hashes]'
keys Up
type_text 'not-her-password'
keys Enter
wait_for 'does NOT match'
save 3-hashes-wrong-password
keys C-u
type_text 'analytical-engine'
keys Enter
wait_for 'the password matches'
save 3-hashes

keys Down Down Enter
wait_for '[4 Review]'
keys C-u
type_text '1'
save 4-review
keys Enter
wait_for '(y/n)'
save 4-review-confirm
keys y

wait_for '[5 Push]'
wait_for 'imported' 10
sleep 1.5
save 5-push
keys p
wait_for 'PAUSED' 10
save 5-push-paused
keys p

wait_for '[6 Summary]' 60
save 6-summary
keys Enter
wait_for '[demo exited]'
save 7-after-exit
echo "every step passed; screens in $out"
