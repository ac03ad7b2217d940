//go:build !linux && !darwin

package main

import (
	"os"
	"runtime"
)

// main refuses: only Linux and macOS are supported (docs/decisions.md).
func main() {
	os.Exit(unsupported(runtime.GOOS, os.Args[1:], os.Stdout, os.Stderr))
}
