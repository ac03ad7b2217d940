package cli

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// completionSources give the candidates that are not in the command
// model. dir is the directory the completed command would run in (the
// shell's, or its -C). A nil function offers nothing.
type completionSources struct {
	Selectors   func(dir string) []string
	Sessions    func() []string
	CleanupRuns func() []string
	Schedules   func() []string
	EvalRuns    func() []string
	Schemas     func() []string
}

// Kinds of values completion knows how to offer.
const (
	predictSelector   = "selector"
	predictSession    = "session"
	predictCleanupRun = "cleanup-run"
	predictSchedule   = "schedule"
	predictEvalRun    = "eval-run"
	predictSchema     = "schema"
	predictCommand    = "command"
)

// predictors names what an argument ("<name>") or a flag ("--name")
// takes: first by the command's path ("eval grade <run>"), then by the
// name alone. Values with an enum offer the enum; anything else offers
// nothing, and the shell completes file names.
var predictors = map[string]string{
	"<selector>":         predictSelector,
	"<selector-or-dir>":  predictSelector,
	"--tree":             predictSelector,
	"cites --repository": predictSelector,
	"<session>":          predictSession,
	"cleanup logs --run": predictCleanupRun,
	"--schedule":         predictSchedule,
	"eval grade <run>":   predictEvalRun,
	"eval report <run>":  predictEvalRun,
	"eval run --resume":  predictEvalRun,
	"schema <name>":      predictSchema,
	"help <command>":     predictCommand,
}

// completeArgs returns the candidates for the last of words, the word
// being completed (possibly empty), after the words before it; words
// begin after the program's name. Candidates begin with that word;
// commands and flags carry their help.
func completeArgs(root *kong.Node, words []string, dir string, src completionSources) []candidate {
	if len(words) == 0 {
		words = []string{""}
	}
	before, cur := words[:len(words)-1], words[len(words)-1]
	st := completionState{root: root, node: root, dir: dir, used: map[*kong.Flag]bool{}}
	st.walk(before)
	var cands []string
	help := map[string]string{}
	switch {
	case st.pending != nil:
		cands = st.values(st.pending.Value, "--"+st.pending.Name, src)
	case !st.dashes && strings.HasPrefix(cur, "--") && strings.Contains(cur, "="):
		name, _, _ := strings.Cut(cur[2:], "=")
		if f := st.long(name); f != nil && takesValue(f) {
			for _, v := range st.values(f.Value, "--"+f.Name, src) {
				cands = append(cands, "--"+name+"="+v)
			}
		}
	case !st.dashes && strings.HasPrefix(cur, "-"):
		for _, f := range st.flags() {
			cands = append(cands, "--"+f.Name)
			help["--"+f.Name] = f.Help
		}
	case hasSubcommands(st.node) && len(st.positional) == 0:
		for _, child := range st.node.Children {
			if child.Type == kong.CommandNode && !child.Hidden {
				cands = append(cands, child.Name)
				help[child.Name] = child.Help
			}
		}
	default:
		if arg := st.arg(); arg != nil {
			cands = st.values(arg, "<"+arg.Name+">", src)
		}
	}
	var out []candidate
	seen := map[string]bool{}
	for _, c := range cands {
		if c != "" && strings.HasPrefix(c, cur) && !seen[c] {
			seen[c] = true
			out = append(out, candidate{Word: c, Help: help[c]})
		}
	}
	return out
}

// candidate is one completion: the word, and for a command or a flag its
// help (shown by zsh and fish).
type candidate struct{ Word, Help string }

// completionState is what the words before the completed one say: the
// command they select, the flags they used, the positional arguments and
// the directory the command would run in.
type completionState struct {
	root, node *kong.Node
	path       []string
	used       map[*kong.Flag]bool
	positional []string
	dashes     bool       // after "--": only positional arguments
	pending    *kong.Flag // the last word was a flag that takes a value
	dir        string
}

func (st *completionState) walk(words []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		st.pending = nil
		switch {
		case st.dashes:
			st.positional = append(st.positional, w)
		case w == "--":
			st.dashes = true
		case strings.HasPrefix(w, "--"):
			name, value, hasValue := strings.Cut(w[2:], "=")
			f := st.long(name)
			if f == nil {
				continue
			}
			st.used[f] = true
			if takesValue(f) && !hasValue {
				if i+1 == len(words) {
					st.pending = f
					continue
				}
				i++
				value = words[i]
			}
			st.flagValue(f, value)
		case strings.HasPrefix(w, "-") && len(w) > 1:
			f := st.short(rune(w[1]))
			if f == nil {
				continue
			}
			st.used[f] = true
			value := w[2:]
			if takesValue(f) && value == "" {
				if i+1 == len(words) {
					st.pending = f
					continue
				}
				i++
				value = words[i]
			}
			st.flagValue(f, value)
		default:
			if child := findCommand(st.node, w); child != nil && len(st.positional) == 0 {
				st.node = child
				st.path = append(st.path, child.Name)
				continue
			}
			st.positional = append(st.positional, w)
		}
	}
}

// flagValue notes what completion needs of a flag's value: -C's directory.
func (st *completionState) flagValue(f *kong.Flag, value string) {
	if f.Name == "dir" && value != "" {
		if filepath.IsAbs(value) {
			st.dir = value
		} else {
			st.dir = filepath.Join(st.dir, value)
		}
	}
}

// scope is the flags the selected command accepts: its own and its
// ancestors'.
func (st *completionState) scope() []*kong.Flag {
	var flags []*kong.Flag
	for n := st.node; n != nil; n = n.Parent {
		flags = append(flags, n.Flags...)
	}
	return flags
}

func (st *completionState) long(name string) *kong.Flag {
	for _, f := range st.scope() {
		if f.Name == name || slices.Contains(f.Aliases, name) {
			return f
		}
	}
	return nil
}

func (st *completionState) short(r rune) *kong.Flag {
	for _, f := range st.scope() {
		if f.Short == r {
			return f
		}
	}
	return nil
}

// flags are the long flags still to give: visible, not help (git turns
// --help into man), not already given unless they repeat.
func (st *completionState) flags() []*kong.Flag {
	var out []*kong.Flag
	for _, f := range st.scope() {
		if f.Hidden || f.Name == "help" || st.used[f] && !repeats(f.Value) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// arg is the positional argument the completed word fills, or nil.
func (st *completionState) arg() *kong.Value {
	args := st.node.Positional
	if len(args) == 0 {
		return nil
	}
	if i := len(st.positional); i < len(args) {
		return args[i]
	}
	if last := args[len(args)-1]; repeats(last) {
		return last
	}
	return nil
}

// values offers what a flag or argument takes, named "--flag" or "<arg>".
func (st *completionState) values(v *kong.Value, name string, src completionSources) []string {
	kind, ok := predictors[strings.Join(append(slices.Clone(st.path), name), " ")]
	if !ok {
		kind = predictors[name]
	}
	call := func(f func() []string) []string {
		if f == nil {
			return nil
		}
		return f()
	}
	switch kind {
	case predictSelector:
		if src.Selectors != nil {
			return src.Selectors(st.dir)
		}
	case predictSession:
		return call(src.Sessions)
	case predictCleanupRun:
		return call(src.CleanupRuns)
	case predictSchedule:
		return call(src.Schedules)
	case predictEvalRun:
		return call(src.EvalRuns)
	case predictSchema:
		return call(src.Schemas)
	case predictCommand:
		// help's words name a command, one level each.
		node := st.root
		for _, w := range st.positional {
			if node = findCommand(node, w); node == nil {
				return nil
			}
		}
		var out []string
		for _, child := range node.Children {
			if child.Type == kong.CommandNode && !child.Hidden {
				out = append(out, child.Name)
			}
		}
		return out
	}
	if v.Enum != "" {
		return strings.Split(v.Enum, ",")
	}
	return nil
}

func takesValue(f *kong.Flag) bool { return !f.IsBool() && !f.IsCounter() }

func repeats(v *kong.Value) bool {
	k := v.Target.Kind()
	return k == reflect.Slice || k == reflect.Map || v.IsCounter()
}
