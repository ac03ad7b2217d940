package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// indexRepo is a repository for index tests, with git run in isolation
// from the machine's configuration.
type indexRepo struct {
	t   *testing.T
	dir string
	env []string
}

func newIndexRepo(t *testing.T, initArgs ...string) *indexRepo {
	t.Helper()
	dir := t.TempDir()
	r := &indexRepo{t: t, dir: dir, env: append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir),
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")}
	r.git(append([]string{"init", "-q"}, initArgs...)...)
	return r
}

func (r *indexRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *indexRepo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *indexRepo) read() *Index {
	r.t.Helper()
	ix, err := New(os.Environ()).ReadIndex(context.Background(), r.dir)
	if err != nil {
		r.t.Fatalf("ReadIndex: %v", err)
	}
	return ix
}

// listed is what `git ls-files -s` says of stage 0.
func (r *indexRepo) listed() []IndexEntry {
	r.t.Helper()
	entries, err := New(os.Environ()).IndexEntries(context.Background(), r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	return entries
}

// populate stages names that stress path order (".", "-", "/", "0"
// around a directory name), nesting, an executable, a symlink and a
// gitlink, and commits them.
func (r *indexRepo) populate() {
	for _, name := range []string{"a.md", "a-b.md", "a/x.md", "a/b/c/deep.md", "a0.md", "b/NODE.md", "b/sp ace.md", "é.md", "z/y/x/w.md"} {
		r.write(name, "---\ntitle: "+name+"\n---\n")
	}
	r.write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(r.dir, "b/link.md")); err != nil {
		r.t.Fatal(err)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+r.git("rev-parse", "HEAD")+",b/sub")
	r.git("commit", "-q", "-m", "two")
}

// TestReadIndexLookupAndUnder finds entries by path and directory in the
// index git lists.
func TestReadIndexLookupAndUnder(t *testing.T) {
	r := newIndexRepo(t)
	r.populate()
	ix := r.read()
	if diff := cmp.Diff(r.listed(), ix.entries); diff != "" {
		t.Errorf("entries differ from git ls-files (-want +got):\n%s", diff)
	}
	{
		if e, ok := ix.Lookup("b/sub"); !ok || e.Mode != "160000" {
			t.Errorf("Lookup(b/sub) = %+v, %v", e, ok)
		}
		if e, ok := ix.Lookup("b/link.md"); !ok || e.Mode != "120000" {
			t.Errorf("Lookup(b/link.md) = %+v, %v", e, ok)
		}
		if e, ok := ix.Lookup("run.sh"); !ok || e.Mode != "100755" {
			t.Errorf("Lookup(run.sh) = %+v, %v", e, ok)
		}
		if _, ok := ix.Lookup("a"); ok {
			t.Errorf("Lookup(a) found a directory")
		}
		var got []string
		for _, e := range ix.Under("a") {
			got = append(got, e.Path)
		}
		if diff := cmp.Diff([]string{"a/b/c/deep.md", "a/x.md"}, got); diff != "" {
			t.Errorf("Under(a) (-want +got):\n%s", diff)
		}
		got = got[:0]
		for _, e := range ix.Under("b/sub") {
			got = append(got, e.Path)
		}
		if diff := cmp.Diff([]string{"b/sub"}, got); diff != "" {
			t.Errorf("Under(b/sub) (-want +got):\n%s", diff)
		}
	}
}

// TestBatchObjects asks for present, missing and spaced names.
func TestBatchObjects(t *testing.T) {
	r := newIndexRepo(t)
	r.populate()
	b, err := New(os.Environ()).OpenBatch(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	names := []string{"HEAD:a.md", "HEAD:no such file", "HEAD:b/sp ace.md", "HEAD:"}
	var got []string
	err = b.Objects(names, func(i int, id string, data []byte) error {
		got = append(got, id)
		if i == 0 && string(data) != "---\ntitle: a.md\n---\n" {
			t.Errorf("HEAD:a.md = %q", data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{r.git("rev-parse", "HEAD:a.md"), "", r.git("rev-parse", "HEAD:b/sp ace.md"), r.git("rev-parse", "HEAD^{tree}")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Objects (-want +got):\n%s", diff)
	}
}
