package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// unsupported is the whole program on an operating system the tool does
// not run on: the tree checks rely on Unix file semantics (O_NOFOLLOW,
// nlink, *at calls) and locks on Unix process signals, so rather than
// half-working it refuses every command with a code scripts can match.
// It imports only contracts, so it builds everywhere.
func unsupported(goos string, args []string, stdout, stderr io.Writer) int {
	e := contracts.Errorf(contracts.CodePlatformUnsupported,
		"git-context-tree does not run on %s; it supports Linux and macOS (on Windows, use it inside WSL)", goos)
	if wantsJSON(args) {
		out, _ := json.MarshalIndent(contracts.ErrorEnvelope{SchemaVersion: contracts.CLIVersion, Error: e}, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
	}
	fmt.Fprintf(stderr, "fatal: %s\n", e.Message)
	return e.Code.ExitCode()
}

// wantsJSON reports --json among the global options and arguments.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" {
			return true
		}
	}
	return false
}
