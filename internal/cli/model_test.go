package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/google/go-cmp/cmp"
)

// TestCommandModel: for every command of the whole tree, and each of its
// subcommands, the one-command model commandModel picks is picked, and it
// gives the same help, the same parse result and the same usage errors as
// the whole tree.
func TestCommandModel(t *testing.T) {
	var all commands
	full, err := newParser(&all, nil, nil, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	var paths [][]string
	var walk func(n *kong.Node, path []string)
	walk = func(n *kong.Node, path []string) {
		for _, c := range n.Children {
			if c.Type != kong.CommandNode {
				continue
			}
			p := append(append([]string(nil), path...), c.Name)
			paths = append(paths, p)
			walk(c, p)
		}
	}
	walk(full.Model.Node, nil)
	if len(paths) < 25 {
		t.Fatalf("only %d command paths in the whole tree", len(paths))
	}
	for _, path := range paths {
		if model, _ := commandModel(path); isWhole(model) {
			t.Errorf("%v: the whole tree, not one command", path)
		}
		for _, extra := range [][]string{{"-h"}, {"--no-such-flag"}, {"--json", "-h"}, {"a", "b", "c", "d", "e"}} {
			args := append(append([]string{"-C", "."}, path...), extra...)
			whole, one := parseWith(t, &commands{}, args), parseWith(t, nil, args)
			if diff := cmp.Diff(whole, one); diff != "" {
				t.Errorf("%q: one-command model differs from the whole tree (-whole +one):\n%s", args, diff)
			}
		}
	}
	// The root's help, an unknown command and flags first get the whole tree.
	for _, args := range [][]string{nil, {"-h"}, {"--help", "verify"}, {"verfy"}, {"--json"}, {"--bogus", "verify"}} {
		if model, _ := commandModel(args); !isWhole(model) {
			t.Errorf("%q: one command, not the whole tree", args)
		}
	}
	if model, g := commandModel([]string{"--dir=x", "--json", "-Cy", "-C", "z", "--dir", "w", "read"}); isWhole(model) || g == nil {
		t.Error("global flags before the command: not the one-command model")
	}
}

func isWhole(model any) bool {
	_, ok := model.(*commands)
	return ok
}

// parsed is what parsing args did: its output, exit, error, the selected
// command and the globals.
type parsed struct {
	Out, Err string
	Exit     int
	Error    string
	Command  string
	Globals  Globals
}

// parseWith parses args with model, or with commandModel's when model is nil.
func parseWith(t *testing.T, model any, args []string) parsed {
	t.Helper()
	var globals *Globals
	if model == nil {
		model, globals = commandModel(args)
	} else {
		globals = &model.(*commands).Globals
	}
	var out, errOut bytes.Buffer
	var p parsed
	parser, err := newParser(model, &out, &errOut, func(code int) { p.Exit = code })
	if err != nil {
		t.Fatal(err)
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		p.Error = err.Error()
	} else {
		p.Command = kctx.Command()
	}
	p.Out, p.Err, p.Globals = out.String(), strings.TrimSpace(errOut.String()), *globals
	return p
}
