package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/git-context-tree/git-context-tree/contracts"
)

type helpCmd struct {
	Command []string `arg:"" optional:"" name:"command" help:"The command (and subcommand) to describe, e.g. write finish."`
}

func (*helpCmd) selfContained() {}

func (cmd *helpCmd) Help() string {
	return `Prints what "git context-tree <command> -h" prints: the command's usage,
arguments and flags; without a command, the whole tree's. (git turns
"git context-tree --help" into "man git-context-tree"; see the man command.)`
}

func (cmd *helpCmd) Run(c *Context) error {
	var all commands
	exited := false
	parser, err := newParser(&all, c.Stdout, c.Stderr, func(int) { exited = true })
	if err != nil {
		return contracts.Errorf(contracts.CodeInternal, "cannot build the command model: %v", err)
	}
	node := parser.Model.Node
	for i, name := range cmd.Command {
		child := findCommand(node, name)
		if child == nil {
			path := strings.Join(cmd.Command[:i+1], " ")
			return contracts.Errorf(contracts.CodeUsage, "no command %q; run 'git context-tree' for the list", path)
		}
		node = child
	}
	if _, err := parser.Parse(append(slices.Clone(cmd.Command), "-h")); err != nil && !exited {
		return contracts.Errorf(contracts.CodeUsage, "%v", err)
	}
	return nil
}

// findCommand is node's visible subcommand called name, or nil.
func findCommand(node *kong.Node, name string) *kong.Node {
	for _, child := range node.Children {
		if child.Type == kong.CommandNode && !child.Hidden && (child.Name == name || slices.Contains(child.Aliases, name)) {
			return child
		}
	}
	return nil
}

// leafCommands are the visible commands that take no subcommand, each with
// its path from the root ("write finish"), in the model's order.
func leafCommands(node *kong.Node, prefix string) (paths []string, nodes []*kong.Node) {
	for _, child := range node.Children {
		if child.Type != kong.CommandNode || child.Hidden {
			continue
		}
		path := strings.TrimSpace(prefix + " " + child.Name)
		if hasSubcommands(child) {
			p, n := leafCommands(child, path)
			paths, nodes = append(paths, p...), append(nodes, n...)
			continue
		}
		paths, nodes = append(paths, path), append(nodes, child)
	}
	return paths, nodes
}

func hasSubcommands(node *kong.Node) bool {
	for _, child := range node.Children {
		if child.Type == kong.CommandNode && !child.Hidden {
			return true
		}
	}
	return false
}

// printCommandList is what a bare `git context-tree` prints: the usage
// line and every command with its summary, one a line (unwrapped, so that
// grep finds a command).
func printCommandList(w io.Writer) error {
	var all commands
	parser, err := newParser(&all, w, w, func(int) {})
	if err != nil {
		return err
	}
	paths, nodes := leafCommands(parser.Model.Node, "")
	width := 0
	for _, p := range paths {
		width = max(width, len(p))
	}
	var b strings.Builder
	b.WriteString("usage: git context-tree [-C <dir>] [--json] <command> [<args>]\n\n")
	for i, p := range paths {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, p, nodes[i].Help)
	}
	b.WriteString("\nRun 'git context-tree help <command>' (or '<command> -h') for a command's usage,\n'git context-tree --version' for the version.\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// versionFlagAsCommand turns `--version` in the command's place (after
// global flags only) into the version command, so that it prints what
// `version` prints, text or --json.
func versionFlagAsCommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--dir":
			i++
		case a == "--json" || strings.HasPrefix(a, "--dir=") || strings.HasPrefix(a, "-C") && len(a) > 2:
		case a == "--version":
			out := slices.Clone(args)
			out[i] = "version"
			return out
		default:
			return args
		}
	}
	return args
}
