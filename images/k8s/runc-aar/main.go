// runc for the local cluster's containerd (images/k8s-up.sh), applying a pod's process limit: Kubernetes has
// no pod field for one, so the harness puts it in the pod annotation aar-harness/pids-limit, containerd
// passes that annotation into each container's OCI spec (pod_annotations), and this sets linux.resources.pids
// from it before runc creates the container. Every other call goes to runc unchanged.
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

const annotation = "aar-harness/pids-limit"

func applyPidsLimit(config string) {
	data, err := os.ReadFile(config)
	if err != nil {
		return
	}
	var spec map[string]any
	if json.Unmarshal(data, &spec) != nil {
		return
	}
	annotations, _ := spec["annotations"].(map[string]any)
	value, _ := annotations[annotation].(string)
	limit, err := strconv.ParseInt(value, 10, 64)
	if err != nil || limit <= 0 {
		return
	}
	linux, _ := spec["linux"].(map[string]any)
	if linux == nil {
		linux = map[string]any{}
		spec["linux"] = linux
	}
	resources, _ := linux["resources"].(map[string]any)
	if resources == nil {
		resources = map[string]any{}
		linux["resources"] = resources
	}
	resources["pids"] = map[string]any{"limit": limit}
	if out, err := json.Marshal(spec); err == nil {
		_ = os.WriteFile(config, out, 0o600)
	}
}

func main() {
	creating, bundle := false, ""
	for i, arg := range os.Args[1:] {
		switch {
		case arg == "create" || arg == "run":
			creating = true
		case creating && (arg == "--bundle" || arg == "-b") && i+2 < len(os.Args):
			bundle = os.Args[i+2]
		case creating && strings.HasPrefix(arg, "--bundle="):
			bundle = strings.TrimPrefix(arg, "--bundle=")
		}
	}
	if creating {
		if bundle == "" {
			bundle, _ = os.Getwd()
		}
		applyPidsLimit(filepath.Join(bundle, "config.json"))
	}
	runc, err := exec.LookPath("runc")
	if err != nil {
		os.Stderr.WriteString("runc-aar: runc not found\n")
		os.Exit(1)
	}
	_ = syscall.Exec(runc, append([]string{"runc"}, os.Args[1:]...), os.Environ())
	os.Exit(1)
}
