// Command git-context-tree keeps Context Trees. Git runs it as
// `git context-tree`.
package main

import (
	"os"

	"github.com/git-context-tree/git-context-tree/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
