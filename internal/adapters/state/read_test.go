package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// outcome is what a read gave, in comparable form.
type outcome struct {
	Data     string
	NotExist bool
	Code     contracts.ErrorCode
	Path     any // the refused path (details.path)
}

func outcomeOf(data string, err error) outcome {
	if err == nil {
		return outcome{Data: data}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return outcome{NotExist: true}
	}
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		return outcome{Code: "not a *contracts.Error: " + contracts.ErrorCode(err.Error())}
	}
	return outcome{Code: ce.Code, Path: ce.Details["path"]}
}

// stateFixture is a state root holding history/s/checkpoint.json, and
// beside it, outside the state, a directory holding the same names.
func stateFixture(t *testing.T) (h *Home, outside string) {
	t.Helper()
	base := t.TempDir()
	outside = filepath.Join(base, "outside")
	h = &Home{Root: filepath.Join(base, "state")}
	for _, root := range []string{h.Root, outside} {
		write(t, filepath.Join(root, "history", "s", "checkpoint.json"), filepath.Base(root))
	}
	return h, outside
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// replace puts a symlink to target where path was.
func replace(t *testing.T, path, target string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileRefusesSymlinksAtEveryComponent(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, h *Home, outside string) (refused string)
		path  []string
		want  outcome
	}{
		{name: "a regular file", path: []string{"history", "s", "checkpoint.json"}, want: outcome{Data: "state"}},
		{name: "a missing file", path: []string{"history", "s", "none.json"}, want: outcome{NotExist: true}},
		{name: "a missing directory on the way", path: []string{"schedules", "x.toml"}, want: outcome{NotExist: true}},
		{
			name: "the root a symlink",
			setup: func(t *testing.T, h *Home, outside string) string {
				replace(t, h.Root, outside)
				return h.Root
			},
			path: []string{"history", "s", "checkpoint.json"},
		},
		{
			name: "a directory on the way a symlink",
			setup: func(t *testing.T, h *Home, outside string) string {
				replace(t, h.Path("history"), filepath.Join(outside, "history"))
				return h.Path("history")
			},
			path: []string{"history", "s", "checkpoint.json"},
		},
		{
			name: "the file a symlink",
			setup: func(t *testing.T, h *Home, outside string) string {
				replace(t, h.Path("history", "s", "checkpoint.json"), filepath.Join(outside, "history", "s", "checkpoint.json"))
				return h.Path("history", "s", "checkpoint.json")
			},
			path: []string{"history", "s", "checkpoint.json"},
		},
		{
			name: "a dangling symlink",
			setup: func(t *testing.T, h *Home, outside string) string {
				replace(t, h.Path("history", "s"), filepath.Join(outside, "nowhere"))
				return h.Path("history", "s")
			},
			path: []string{"history", "s", "checkpoint.json"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, outside := stateFixture(t)
			want := tt.want
			if tt.setup != nil {
				want = outcome{Code: contracts.CodeStateInvalid, Path: tt.setup(t, h, outside)}
			}
			data, err := h.ReadFile(h.Path(tt.path...))
			if diff := cmp.Diff(want, outcomeOf(string(data), err)); diff != "" {
				t.Errorf("ReadFile (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	h, _ := stateFixture(t)
	write(t, h.Path("schedules"), "a file where a directory belongs")
	if err := syscall.Mkfifo(h.Path("history", "s", "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path []string
		want outcome
	}{
		{[]string{"schedules", "x.toml"}, outcome{Code: contracts.CodeStateInvalid, Path: h.Path("schedules")}},
		{[]string{"history", "s", "pipe"}, outcome{Code: contracts.CodeStateInvalid, Path: h.Path("history", "s", "pipe")}},
		{[]string{"history", "s"}, outcome{Code: contracts.CodeStateInvalid, Path: h.Path("history", "s")}},
	} {
		data, err := h.ReadFile(h.Path(tt.path...))
		if diff := cmp.Diff(tt.want, outcomeOf(string(data), err)); diff != "" {
			t.Errorf("ReadFile(%v) (-want +got):\n%s", tt.path, diff)
		}
	}
	if _, err := h.ReadFile(filepath.Join(filepath.Dir(h.Root), "outside", "history", "s", "checkpoint.json")); outcomeOf("", err).Code != contracts.CodeInternal {
		t.Errorf("a path outside the state: %v, want INTERNAL", err)
	}
}

func TestReadDir(t *testing.T) {
	h, outside := stateFixture(t)
	write(t, h.Path("history", "a", "r.json"), "{}")
	entries, err := h.ReadDir(h.Path("history"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"a", "s"}, names); diff != "" {
		t.Errorf("ReadDir(history) (-want +got):\n%s", diff)
	}
	if _, err := h.ReadDir(h.Path("schedules")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing directory: %v, want fs.ErrNotExist", err)
	}

	replace(t, h.Path("history", "a"), filepath.Join(outside, "history", "s"))
	for _, tt := range []struct{ list, refused string }{
		{h.Path("history", "a"), h.Path("history", "a")},
		{h.Path("history", "a", "sub"), h.Path("history", "a")},
		{h.Path("history", "s", "checkpoint.json"), h.Path("history", "s", "checkpoint.json")},
	} {
		_, err := h.ReadDir(tt.list)
		want := outcome{Code: contracts.CodeStateInvalid, Path: tt.refused}
		if diff := cmp.Diff(want, outcomeOf("", err)); diff != "" {
			t.Errorf("ReadDir(%s) (-want +got):\n%s", tt.list, diff)
		}
	}
}

func TestCheckPath(t *testing.T) {
	h, outside := stateFixture(t)
	replace(t, h.Path("history", "s", "checkpoint.json"), filepath.Join(outside, "history", "s", "checkpoint.json"))
	for _, tt := range []struct {
		path []string
		want outcome
	}{
		{nil, outcome{}},
		{[]string{"history", "s"}, outcome{}},
		{[]string{"history", "none"}, outcome{}},
		{[]string{"schedules", "none", "x"}, outcome{}},
		{[]string{"history", "s", "checkpoint.json"}, outcome{Code: contracts.CodeStateInvalid, Path: h.Path("history", "s", "checkpoint.json")}},
	} {
		if diff := cmp.Diff(tt.want, outcomeOf("", h.CheckPath(h.Path(tt.path...)))); diff != "" {
			t.Errorf("CheckPath(%v) (-want +got):\n%s", tt.path, diff)
		}
	}
	replace(t, h.Path("history"), filepath.Join(outside, "history"))
	want := outcome{Code: contracts.CodeStateInvalid, Path: h.Path("history")}
	if diff := cmp.Diff(want, outcomeOf("", h.CheckPath(h.Path("history", "s")))); diff != "" {
		t.Errorf("CheckPath below a symlinked directory (-want +got):\n%s", diff)
	}
}
