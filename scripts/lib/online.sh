# Sourced by scripts/loadtest-fresh and scripts/loadtest-faults: the online world on loopback, set up one way.
#   online_setup WORK MANIFEST LATENCY [HOST=BASE ...]
# makes a CA for the run and a certificate for the music links' own hosts, starts the healthy stand-in
# (scripts/lib/standin.py: HTTP for the APIs the scripts call, TLS for the links' hosts), and writes WORK/rules.json:
# the manifest with every URL its scripts name pointed at the stand-in (https://api.song.link/… becomes
# http://127.0.0.1:PORT/api.song.link/…, so the stand-in counts requests per upstream host), or at BASE for a HOST
# given (BASE/HOST/…: a faulty upstream). Afterwards: $standin, $standin_port, $standin_tls_port, the array
# connect_to (--trust-ca and one --connect-to per link host), and the functions below.
link_hosts=(open.spotify.com music.apple.com tidal.com music.amazon.com www.pandora.com song.link)

online_setup() {
  local work="$1" manifest="$2" latency="$3"
  shift 3
  local san
  san="$(printf 'DNS:%s,' "${link_hosts[@]}")"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=switchyard loadtest CA" -keyout "$work/ca.key" \
    -out "$work/ca.pem" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2> /dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=open.spotify.com" -keyout "$work/leaf.key" -out "$work/leaf.csr" \
    2> /dev/null
  openssl x509 -req -in "$work/leaf.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile <(printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "${san%,}") -out "$work/leaf.pem" 2> /dev/null
  python3 "$root/scripts/lib/standin.py" "$work/standin.port" "$latency" "$work/standin-tls.port" "$work/leaf.pem" \
    "$work/leaf.key" &
  standin=$!
  wait_for_file "$work/standin.port"
  wait_for_file "$work/standin-tls.port"
  standin_port="$(cat "$work/standin.port")"
  standin_tls_port="$(cat "$work/standin-tls.port")"
  connect_to=(--trust-ca "$work/ca.pem")
  for host in "${link_hosts[@]}"; do connect_to+=(--connect-to "$host:443:127.0.0.1:$standin_tls_port"); done
  point_manifest "$manifest" "$work/rules.json" "$@"
}

# point_manifest MANIFEST OUT [HOST=BASE ...]: the manifest with its scripts' URLs pointed at the stand-in, or at BASE.
point_manifest() {
  local manifest="$1" out="$2"
  shift 2
  python3 - "$manifest" "$standin_port" "$@" > "$out" <<'PY'
import json, re, sys
data = json.load(open(sys.argv[1]))
base = "http://127.0.0.1:%s/" % sys.argv[2]
overrides = dict(pair.split("=", 1) for pair in sys.argv[3:])
def point(source):
    return re.sub(r"https?://([A-Za-z0-9.\-]+)",
                  lambda m: overrides.get(m.group(1), base.rstrip("/")).rstrip("/") + "/" + m.group(1), source)
for action in data.get("actions", []):
    for fmt in action.get("formats", []):
        for key in ("script2", "script"):
            if key in fmt: fmt[key] = point(fmt[key])
for preview in data.get("previews", []):
    for key in ("script2", "script"):
        if key in preview: preview[key] = point(preview[key])
json.dump(data, sys.stdout)
PY
}

wait_for_file() {
  for _ in $(seq 1 100); do [ -s "$1" ] && return 0; sleep 0.1; done
  echo "online: $1 never appeared" >&2
  return 1
}

# start_server ARGS…: the release server on a free port, its log in $work/server.log; sets $server and $port.
start_server() {
  rm -f "$work/server.log"
  .build/release/switchyard serve --port 0 --log-level warning "$@" 2> "$work/server.log" &
  server=$!
  for _ in $(seq 1 200); do grep -q "listening on" "$work/server.log" 2>/dev/null && break; sleep 0.1; done
  port="$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' "$work/server.log" | head -1)"
  [ -n "$port" ] || { cat "$work/server.log" >&2; return 1; }
}

stop_server() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }

# The healthy stand-in's request counts, as JSON.
counts() { curl -s "http://127.0.0.1:$standin_port/__counts"; }

# field NAME LINE: the number after NAME in a result line.
field() { sed -n "s/.*$1 \([0-9.]*\).*/\1/p" <<< "$2"; }

# The wrk script of the /healthz floor.
write_floor_lua() {
  cat > "$1" <<'LUA'
request = function() return wrk.format("GET", "/healthz") end
done = function(summary, latency, requests)
  io.write(string.format("requests/s %.0f, p50 %.2f ms, p99 %.2f ms, errors %d, requests %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
LUA
}
