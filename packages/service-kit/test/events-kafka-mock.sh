#!/usr/bin/env bash
# Runs the Kafka contract suite without a Kafka installation, against the mock cluster built into
# librdkafka, which Debian's kcat carries (apt-get install -y kcat). The mock speaks the Kafka
# protocol on a loopback port; it is slower than a real broker at group rebalances (about 100 s here).
set -euo pipefail
command -v kcat >/dev/null || { echo "kcat is not installed: apt-get install -y kcat" >&2; exit 1; }
log=$(mktemp)
kcat -X test.mock.num.brokers=1 -b mock:9092 -C -t warmup -o end -q -d mock >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
port=''
for _ in $(seq 100); do
  port=$(grep -o 'bootstrap.servers=127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the kcat mock cluster did not start" >&2; exit 1; }
cd "$(dirname "$0")/../../.."
KAFKA_BROKERS="127.0.0.1:$port" npx jest --testPathPatterns 'service-kit/test/events-kafka' "$@"
