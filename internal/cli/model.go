package cli

import (
	"reflect"
	"strings"
)

// commandModel is what kong builds its model from: the whole command tree,
// or, when args name a top-level command plainly (only global flags before
// it, no help asked at the root), a struct of the Globals and that one
// command, with the same fields and tags. kong builds a model by
// reflection on every run, ~2 ms for the whole tree against ~0.1 ms for one
// command, and agents and hooks run the binary many times. The command's
// own parsing, help and errors are the same either way (TestCommandModel);
// the root's help and an unknown command get the whole tree.
func commandModel(args []string) (model any, globals *Globals) {
	if name := invokedCommand(args); name != "" {
		t := reflect.TypeFor[commands]()
		g, _ := t.FieldByName("Globals")
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous || commandName(f) != name {
				continue
			}
			one := reflect.New(reflect.StructOf([]reflect.StructField{g, f}))
			return one.Interface(), one.Elem().Field(0).Addr().Interface().(*Globals)
		}
	}
	var all commands
	return &all, &all.Globals
}

// commandName is the name kong gives a command field: its name tag, else
// the field's name in lower case (every command is one word).
func commandName(f reflect.StructField) string {
	if n := f.Tag.Get("name"); n != "" {
		return n
	}
	return strings.ToLower(f.Name)
}

// invokedCommand is the first argument after the global flags (-C <dir>,
// -C<dir>, --dir <dir>, --dir=<dir>, --json), or "" when anything else comes
// first (-h, --help, an unknown flag, nothing).
func invokedCommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--dir":
			i++
		case a == "--json" || strings.HasPrefix(a, "--dir=") || strings.HasPrefix(a, "-C") && len(a) > 2:
		case strings.HasPrefix(a, "-"):
			return ""
		default:
			return a
		}
	}
	return ""
}
