#!/usr/bin/env bash
# Notification hook: tells a person that a durable-agent prompt is waiting for an approval.
# Reads the hook input (JSON) on stdin; needs `jq`. Every channel is optional.
set -u
input=$(cat)
message=$(printf '%s' "$input" | jq -r '.message')
workflow=$(printf '%s' "$input" | jq -r '.details.workflow_id')
call=$(printf '%s' "$input" | jq -r '.details.call_id')
line="$(date -u +%FT%TZ) $message -- answer with: durable-agent approve $workflow $call"

# 1. Always: a line in a file a person (or a cron job) can watch.
echo "$line" >> "${DURABLE_AGENT_NOTIFY_FILE:-$HOME/durable-agent-approvals.log}"
# 2. A desktop notification, when there is a desktop.
command -v notify-send >/dev/null && notify-send "durable-agent: approval needed" "$message"
# 3. A chat webhook (Slack, Mattermost, ...), when one is configured in the hook's env.
if [ -n "${APPROVAL_WEBHOOK_URL:-}" ]; then
  curl -fsS -m 10 -H 'Content-Type: application/json' \
    -d "$(jq -n --arg text "$line" '{text: $text}')" "$APPROVAL_WEBHOOK_URL" >/dev/null
fi
# Advisory event: no decision to print; exit 0.
exit 0
