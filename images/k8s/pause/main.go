// The sandbox ("pause") process of every pod of the local cluster (images/k8s-up.sh): it sleeps until told
// to stop, and reaps the children it inherits (trial pods share their process namespace with it).
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	reap := make(chan os.Signal, 16)
	signal.Notify(reap, syscall.SIGCHLD)
	for {
		select {
		case <-stop:
			return
		case <-reap:
			for {
				if pid, _ := syscall.Wait4(-1, nil, syscall.WNOHANG, nil); pid <= 0 {
					break
				}
			}
		}
	}
}
