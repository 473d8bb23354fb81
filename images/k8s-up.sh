#!/usr/bin/env bash
# A single-node Kubernetes cluster on this machine, for `environment: kubernetes` and its tests (root).
#
#   bash images/k8s-up.sh          build once (cached), then start the cluster unless it runs; prints KUBECONFIG
#   bash images/k8s-up.sh down     stops it (its pods, kubelet, control plane, its containerd), keeps the cache
#   bash images/k8s-up.sh status   says whether it runs
#   bash images/k8s-up.sh pause|resume COMPONENT   SIGSTOP/SIGCONT one component (the fault tests: kubelet, kube-apiserver)
#
# Built from registries this machine reaches: kube-apiserver, kube-controller-manager, kube-scheduler,
# kubelet and kubectl from the Go module k8s.io/kubernetes (its go.mod's ./staging replaces swapped for
# the published k8s.io/* modules), etcd from go.etcd.io/etcd/server/v3 (its ../ replaces swapped the same
# way), and a pause image from a few lines of Go. Cached by version under ${XDG_CACHE_HOME:-~/.cache}/aar/k8s/.
#
# It shares the machine with a Docker engine it never touches: a containerd of its own (own socket, root
# and state folders; Debian's containerd 1.6 with its CRI plugin), CNI from Debian's containernetworking-plugins
# on a bridge of its own (aark8s0, 10.213.0.0/24; services 10.214.0.0/24), every port on 127.0.0.1 in the
# 26xxx range, and a host rule that drops whatever its pods send off this machine.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

K8S_VERSION=${AAR_K8S_VERSION:-v1.34.2}
ETCD_VERSION=${AAR_ETCD_VERSION:-v3.6.16}
STAGING_VERSION=v0.${K8S_VERSION#v1.}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/aar/k8s/k8s-${K8S_VERSION}-etcd-${ETCD_VERSION}
BIN=$CACHE/bin
STATE=${AAR_K8S_STATE:-/var/lib/aar-k8s}
RUN=${AAR_K8S_RUN:-/run/aar-k8s}
LOGS=$STATE/logs
POD_CIDR=10.213.0.0/24
SERVICE_CIDR=10.214.0.0/24
BRIDGE=aark8s0
PORT_APISERVER=26443 PORT_ETCD=26379 PORT_ETCD_PEER=26380 PORT_KUBELET=26250 PORT_KUBELET_HEALTHZ=26248
PORT_CONTROLLER=26257 PORT_SCHEDULER=26259
NODE=$(hostname | tr 'A-Z' 'a-z')
PAUSE_IMAGE=aar-k8s/pause:1
CONTAINERD_SOCK=$RUN/containerd.sock
KUBECONFIG_FILE=$STATE/kubeconfig
COMPONENTS=(containerd etcd kube-apiserver kube-controller-manager kube-scheduler kubelet)

log() { echo "k8s-up: $*"; }
pid_of() { cat "$RUN/$1.pid" 2>/dev/null || true; }
running() { local p; p=$(pid_of "$1"); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
# The API server, as the admin (curl: the script needs no kubectl).
api() {
  local path=$1
  shift
  curl -sS --fail --max-time 5 --cacert "$STATE/pki/ca.crt" -H "Authorization: Bearer $(cat "$STATE/pki/admin.token")" "$@" "https://127.0.0.1:$PORT_APISERVER$path"
}
# Deletes the default namespace's pods that have a label (all with no label), at once.
delete_pods() {
  api "/api/v1/namespaces/default/pods${1:+?labelSelector=$1}" -X DELETE -H 'Content-Type: application/json' -d '{"gracePeriodSeconds":0}' >/dev/null
}
# A JSON answer of the API server, judged by a JavaScript expression of it (`j`).
api_says() {
  api "$1" | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const j = JSON.parse(s); process.exit(eval(process.argv[1]) ? 0 : 1); })' "$2"
}
node_ready() { api_says "/api/v1/nodes/$NODE" 'j.status.conditions.some((c) => c.type === "Ready" && c.status === "True")'; }
no_pods() { api_says /api/v1/pods 'j.items.length === 0'; }

# --- build (once per version) ------------------------------------------------------------------------------

# The Kubernetes source with its ./staging replaces swapped for the published k8s.io/* modules (once per build).
KUBE_SRC=""
kubernetes_source() {
  [ -n "$KUBE_SRC" ] && return 0
  local src
  src=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
  KUBE_SRC=$(mktemp -d "${TMPDIR:-/tmp}/aar-k8s-build.XXXXXX")
  cp -r "$src/." "$KUBE_SRC/" && chmod -R u+w "$KUBE_SRC"
  local edits=()
  while read -r module; do edits+=("-dropreplace=$module" "-require=$module@$STAGING_VERSION"); done \
    < <(sed -n 's#^\s*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' "$KUBE_SRC/go.mod")
  (cd "$KUBE_SRC" && go mod edit "${edits[@]}")
  # The source's go.work joins its staging folders: the build uses the published modules instead.
  rm -f "$KUBE_SRC/go.work" "$KUBE_SRC/go.work.sum"
}

# One Kubernetes command (kube-apiserver, kubelet, ...), into the cache once built.
build_kube_command() {
  kubernetes_source
  local v=k8s.io/component-base/version cv=k8s.io/client-go/pkg/version minor=${K8S_VERSION#v1.}
  local flags="-s -w"
  for pkg in $v $cv; do flags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor%%.*} -X $pkg.gitTreeState=clean"; done
  (cd "$KUBE_SRC" && GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "$flags" -o "$BIN/$1.partial" "./cmd/$1")
  mv "$BIN/$1.partial" "$BIN/$1"
}

build_etcd() {
  local src work
  src=$(go mod download -json "go.etcd.io/etcd/server/v3@$ETCD_VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
  work=$(mktemp -d "${TMPDIR:-/tmp}/aar-etcd-build.XXXXXX")
  cp -r "$src/." "$work/" && chmod -R u+w "$work"
  (
    cd "$work"
    local edits=()
    while read -r module; do edits+=("-dropreplace=$module" "-require=$module@$ETCD_VERSION"); done \
      < <(sed -n 's#^\s*\(go\.etcd\.io/etcd/[a-z0-9/]*\) => \.\./.*#\1#p' go.mod)
    go mod edit "${edits[@]}"
    GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$BIN/etcd.partial" .
  )
  rm -rf "$work"
  mv "$BIN/etcd.partial" "$BIN/etcd"
}

# The small programs of images/k8s/ (the pods' pause process, the runc that applies a pod's process limit).
build_small() {
  (cd "$HERE/k8s/$1" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$BIN/$1.partial" .) && mv "$BIN/$1.partial" "$BIN/$1"
}

# The cluster's programs (kubectl is built by `build`, and by `up` once the cluster runs: the script needs none).
CLUSTER_PROGRAMS=(pause runc-aar etcd kube-apiserver kube-controller-manager kube-scheduler kubelet)

build() {
  local missing=() b
  for b in "${CLUSTER_PROGRAMS[@]}" "$@"; do [ -x "$BIN/$b" ] || missing+=("$b"); done
  ((${#missing[@]})) || return 0
  command -v go >/dev/null || { echo "k8s-up: Go is needed to build the cluster once (apt-get install golang, or see go.dev)" >&2; exit 1; }
  log "building ${missing[*]} (Kubernetes $K8S_VERSION, etcd $ETCD_VERSION) from Go modules into $BIN (once: about 20 minutes of CPU, and the Go modules it downloads)"
  local started=$SECONDS
  mkdir -p "$BIN"
  for b in "${missing[@]}"; do
    case $b in
      pause | runc-aar) build_small "$b" ;;
      etcd) build_etcd ;;
      *) build_kube_command "$b" ;;
    esac
  done
  # Gone once built: a later build in this run (up builds kubectl after the cluster runs) copies it again.
  [ -z "$KUBE_SRC" ] || { rm -rf "$KUBE_SRC"; KUBE_SRC=""; }
  log "built in $((SECONDS - started)) s"
}

# --- configuration (once per state folder) ------------------------------------------------------------------

install_packages() {
  local missing=()
  [ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v curl >/dev/null || missing+=(curl)
  if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

certificates() {
  local pki=$STATE/pki
  [ -f "$pki/apiserver.crt" ] && return 0
  mkdir -p "$pki" && cd "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 -subj /CN=aar-k8s-ca 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj /CN=kube-apiserver 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,IP:10.214.0.1,DNS:localhost,DNS:kubernetes.default.svc\n' >san.ext
  openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out apiserver.crt -days 3650 -extfile san.ext 2>/dev/null
  openssl genrsa -out sa.key 2048 2>/dev/null && openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  openssl rand -hex 24 >admin.token
  printf '%s,admin,admin,system:masters\n' "$(cat admin.token)" >tokens.csv
  cd - >/dev/null
}

kubeconfig() {
  local pki=$STATE/pki
  cat >"$KUBECONFIG_FILE" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: aar-k8s
  cluster:
    server: https://127.0.0.1:$PORT_APISERVER
    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
users:
- name: admin
  user:
    token: $(cat "$pki/admin.token")
contexts:
- name: aar-k8s
  context: {cluster: aar-k8s, user: admin}
current-context: aar-k8s
EOF
  chmod 600 "$KUBECONFIG_FILE"
}

configs() {
  mkdir -p "$STATE/cni/net.d" "$STATE/config" "$LOGS" "$RUN"
  cat >"$STATE/config/containerd.toml" <<EOF
version = 2
root = "$STATE/containerd"
state = "$RUN/containerd"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$CONTAINERD_SOCK.ttrpc"
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$STATE/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "docker.io/$PAUSE_IMAGE"
  enable_unprivileged_ports = false
  enable_unprivileged_icmp = false
  disable_apparmor = true
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      pod_annotations = ["aar-harness/pids-limit"]
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$RUN/runc"
        BinaryName = "$BIN/runc-aar"
EOF
  cat >"$STATE/cni/net.d/10-aar-k8s.conflist" <<EOF
{"cniVersion": "1.0.0", "name": "aar-k8s", "plugins": [
  {"type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$STATE/cni/ipam"}},
  {"type": "portmap", "capabilities": {"portMappings": true}}
]}
EOF
  cat >"$STATE/config/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: $PORT_KUBELET
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $PORT_KUBELET_HEALTHZ
failCgroupV1: false
failSwapOn: false
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
authorization: {mode: AlwaysAllow}
evictionHard: {memory.available: "200Mi", nodefs.available: "1%", imagefs.available: "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
maxPods: 110
podPidsLimit: -1
nodeStatusUpdateFrequency: 4s
resolvConf: ""
EOF
}

# Pods reach each other across the bridge (bridged traffic meets the FORWARD chain, whose policy Docker sets
# to DROP), and nothing off this machine, whatever a trial's own guard does: a safety net for the hostile tests.
host_rules() {
  iptables -C FORWARD -s "$POD_CIDR" -d "$POD_CIDR" -j ACCEPT 2>/dev/null || iptables -I FORWARD -s "$POD_CIDR" -d "$POD_CIDR" -j ACCEPT
  iptables -C FORWARD -s "$POD_CIDR" ! -d "$POD_CIDR" -j DROP 2>/dev/null || iptables -I FORWARD -s "$POD_CIDR" ! -d "$POD_CIDR" -j DROP
  modprobe br_netfilter 2>/dev/null || true
}

# --- start and stop -----------------------------------------------------------------------------------------

start() {
  local name=$1
  shift
  running "$name" && return 0
  setsid "$@" >"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq 1 "$seconds"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "k8s-up: $what not ready within $seconds s; see $LOGS" >&2
  return 1
}

up() {
  install_packages
  build
  certificates
  configs
  kubeconfig
  host_rules
  local pki=$STATE/pki
  start containerd containerd --config "$STATE/config/containerd.toml"
  wait_for containerd 30 ctr --address "$CONTAINERD_SOCK" version
  if ! ctr --address "$CONTAINERD_SOCK" -n k8s.io images check "name==docker.io/$PAUSE_IMAGE" | grep -q "$PAUSE_IMAGE"; then
    local t
    t=$(mktemp -d)
    printf 'FROM scratch\nCOPY pause /pause\nENTRYPOINT ["/pause"]\n' >"$t/Dockerfile" && cp "$BIN/pause" "$t/"
    docker build -q -t "$PAUSE_IMAGE" "$t" >/dev/null
    docker save "$PAUSE_IMAGE" | ctr --address "$CONTAINERD_SOCK" -n k8s.io images import - >/dev/null
    rm -rf "$t"
  fi
  start etcd "$BIN/etcd" --name aar-k8s --data-dir "$STATE/etcd" \
    --listen-client-urls "http://127.0.0.1:$PORT_ETCD" --advertise-client-urls "http://127.0.0.1:$PORT_ETCD" \
    --listen-peer-urls "http://127.0.0.1:$PORT_ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$PORT_ETCD_PEER" \
    --initial-cluster "aar-k8s=http://127.0.0.1:$PORT_ETCD_PEER" --listen-metrics-urls "" --log-level warn
  local fresh=1
  running kube-apiserver && fresh=0
  start kube-apiserver "$BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$PORT_ETCD" \
    --bind-address 127.0.0.1 --secure-port "$PORT_APISERVER" --advertise-address 127.0.0.1 \
    --service-cluster-ip-range "$SERVICE_CIDR" --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --client-ca-file "$pki/ca.crt" --token-auth-file "$pki/tokens.csv" --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$pki/sa.pub" \
    --service-account-signing-key-file "$pki/sa.key" --allow-privileged=false --anonymous-auth=false \
    --enable-priority-and-fairness=false --profiling=false --endpoint-reconciler-type none
  wait_for kube-apiserver 90 api /readyz
  # Pods of the harness and its tests from before this start (a killed run, a rebooted machine) hold the node's
  # capacity and their relays' sockets are gone: nothing that runs now can own them.
  if ((fresh)); then delete_pods aar-harness || true; delete_pods aar-test || true; fi
  start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$KUBECONFIG_FILE" \
    --authentication-kubeconfig "$KUBECONFIG_FILE" --authorization-kubeconfig "$KUBECONFIG_FILE" \
    --bind-address 127.0.0.1 --secure-port "$PORT_CONTROLLER" --leader-elect=false \
    --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" --use-service-account-credentials=false \
    --controllers '*,-nodeipam,-cloud-node-lifecycle,-route,-service' --node-monitor-grace-period 20s --profiling=false
  start kube-scheduler "$BIN/kube-scheduler" --kubeconfig "$KUBECONFIG_FILE" \
    --authentication-kubeconfig "$KUBECONFIG_FILE" --authorization-kubeconfig "$KUBECONFIG_FILE" \
    --bind-address 127.0.0.1 --secure-port "$PORT_SCHEDULER" --leader-elect=false --profiling=false
  start kubelet "$BIN/kubelet" --config "$STATE/config/kubelet.yaml" --kubeconfig "$KUBECONFIG_FILE" \
    --hostname-override "$NODE" --root-dir "$STATE/kubelet" --cert-dir "$STATE/kubelet/pki"
  wait_for "node $NODE" 120 node_ready
  wait_for "the default service account" 60 api /api/v1/namespaces/default/serviceaccounts/default
  log "cluster up: node $NODE; export KUBECONFIG=$KUBECONFIG_FILE"
  build kubectl
  log "kubectl: $BIN/kubectl"
}

stop() {
  local name=$1 p
  p=$(pid_of "$name")
  if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
    kill -CONT "$p" 2>/dev/null || true
    kill "$p" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$p" 2>/dev/null || true
  fi
  rm -f "$RUN/$name.pid"
}

down() {
  if running kube-apiserver && running kubelet; then
    delete_pods || true
    wait_for "pods to go" 60 no_pods || true
  fi
  stop kubelet
  if running containerd; then
    local ctr=(ctr --address "$CONTAINERD_SOCK" -n k8s.io)
    for task in $("${ctr[@]}" tasks ls -q 2>/dev/null); do "${ctr[@]}" tasks kill -s SIGKILL "$task" >/dev/null 2>&1 || true; done
    sleep 1
    for task in $("${ctr[@]}" tasks ls -q 2>/dev/null); do "${ctr[@]}" tasks delete -f "$task" >/dev/null 2>&1 || true; done
  fi
  for name in kube-scheduler kube-controller-manager kube-apiserver etcd containerd; do stop "$name"; done
  log "cluster stopped (state kept in $STATE; the build in $CACHE)"
}

status() {
  local all=0
  for name in "${COMPONENTS[@]}"; do
    if running "$name"; then echo "$name: running (pid $(pid_of "$name"))"; else echo "$name: stopped"; all=1; fi
  done
  return $all
}

signal() {
  local sig=$1 name=${2:?which component}
  running "$name" || { echo "k8s-up: $name is not running" >&2; exit 1; }
  kill "-$sig" "$(pid_of "$name")"
}

case "${1:-up}" in
  up) up ;;
  build) build kubectl ;;
  down) down ;;
  status) status ;;
  pause) signal STOP "${2:-}" ;;
  resume) signal CONT "${2:-}" ;;
  *) echo "usage: k8s-up.sh [up|build|down|status|pause COMPONENT|resume COMPONENT]" >&2; exit 2 ;;
esac
