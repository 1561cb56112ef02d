#!/bin/sh
# One-shot: creates the namespace durable-agent uses and registers the search attributes that
# `durable-agent list` and `pending` filter on (the embedded dev server registers the same ones).
# Safe to re-run: existing namespaces and attributes are left alone.
set -eu
NAMESPACE=${DEFAULT_NAMESPACE:-default}
ADDRESS=${TEMPORAL_ADDRESS:-temporal:7233}
SEARCH_ATTRIBUTES="DurableAgentStatus DurableAgentKind DurableAgentSession"

# Retries a command for up to a minute: the server accepts connections before it is healthy, and
# a new namespace reaches the frontend's namespace cache only after a few seconds.
retry() {
  attempt=0
  until "$@"; do
    attempt=$((attempt + 1))
    if [ "$attempt" -ge 30 ]; then
      echo "Giving up after $attempt attempts: $*" >&2
      exit 1
    fi
    sleep 2
  done
}

retry temporal operator cluster health --address "$ADDRESS"
temporal operator namespace describe --address "$ADDRESS" -n "$NAMESPACE" >/dev/null 2>&1 ||
  temporal operator namespace create --address "$ADDRESS" -n "$NAMESPACE" --retention 30d

existing=$(retry temporal operator search-attribute list --address "$ADDRESS" -n "$NAMESPACE")
for name in $SEARCH_ATTRIBUTES; do
  if echo "$existing" | grep -qw "$name"; then
    echo "Search attribute $name already registered"
  else
    temporal operator search-attribute create --address "$ADDRESS" -n "$NAMESPACE" --name "$name" --type Keyword
  fi
done
echo "Namespace '$NAMESPACE' is ready"
