package staged

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// TestHeadProjectAgreesWithListing: what headProject asks of cat-file (the
// configuration, its trees, HEAD's entry at each) equals what project and
// lookupHeads read from ls-tree, for a plain tree, a tree at the
// repository's root, a gitlink whose commit the repository has and a tree
// HEAD does not hold; and a configuration committed as a symlink (a
// symlink on disk too) is still refused, never followed.
func TestHeadProjectAgreesWithListing(t *testing.T) {
	r := newStagedRepo(t, 30)
	head := r.git("rev-parse", "HEAD")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",vendored")
	r.write(contracts.ConfigFile, `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}, {"kind": "directory", "path": "vendored"}, {"kind": "directory", "path": "absent"}, {"kind": "directory", "path": "."}]}`+"\n")
	if err := os.MkdirAll(filepath.Join(r.dir, "absent"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("add", contracts.ConfigFile)
	r.git("commit", "-q", "--no-verify", "-m", "more trees")

	compare := func(stage string) (*project, error) {
		t.Helper()
		return compareHeadProject(t, r, r.dir, stage)
	}
	got, err := compare("four trees")
	if err != nil || len(got.trees) != 4 || got.heads["vendored"].Mode != "160000" || got.heads["docs/ctx"].Mode != "040000" || got.heads["."].Mode != "040000" {
		t.Fatalf("four trees: %+v, %v", got, err)
	}
	if _, ok := got.heads["absent"]; ok {
		t.Errorf("a tree HEAD does not hold has an entry: %+v", got.heads["absent"])
	}

	// A configuration committed as a symlink.
	r.write("real.json", `{"schemaVersion": 3, "trees": []}`+"\n")
	if err := os.Remove(filepath.Join(r.dir, contracts.ConfigFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", filepath.Join(r.dir, contracts.ConfigFile)); err != nil {
		t.Fatal(err)
	}
	r.git("add", "-A", ".")
	r.git("commit", "-q", "--no-verify", "-m", "symlinked configuration")
	_, err = compare("symlinked configuration")
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeConfigInvalid {
		t.Errorf("symlinked configuration: %v, want %s", err, contracts.CodeConfigInvalid)
	}
}

// compareHeadProject runs headProject for a command in dir and checks it
// against project and lookupHeads over ls-tree's listing.
func compareHeadProject(t *testing.T, r *stagedRepo, dir, stage string) (*project, error) {
	t.Helper()
	ctx := context.Background()
	run := &run{g: r.g, dir: dir, top: r.dir, commonDir: filepath.Join(r.dir, ".git")}
	objects, err := r.g.OpenBatch(ctx, r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer objects.Close()
	candidates := run.configCandidates()
	got, gotErr := run.headProject(ctx, candidates, objects)
	listed, err := r.g.HeadEntries(ctx, r.dir, candidates...)
	if err != nil {
		t.Fatal(err)
	}
	want, wantErr := run.project(candidates, listed, objects)
	if wantErr == nil && len(want.trees) > 0 {
		want.heads, wantErr = run.lookupHeads(ctx, want.trees)
	}
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%s: errors differ: %v, listing %v", stage, gotErr, wantErr)
	}
	if gotErr == nil {
		if diff := cmp.Diff(want.heads, got.heads); diff != "" {
			t.Errorf("%s: heads (-listing +cat-file):\n%s", stage, diff)
		}
		if diff := cmp.Diff(want.cfgEntry, got.cfgEntry); diff != "" || len(want.trees) != len(got.trees) {
			t.Errorf("%s: configuration (-listing +cat-file):\n%s, %d trees against %d", stage, diff, len(got.trees), len(want.trees))
		}
	}
	return got, gotErr
}

// TestHeadProjectNestedCandidates: the configuration's candidates from a
// command run deep in the work tree are read from the trees holding them
// as ls-tree lists them: the nearest committed one wins, a directory
// named like the configuration is refused, a directory HEAD holds as a
// file holds nothing, and before the first commit there is none.
func TestHeadProjectNestedCandidates(t *testing.T) {
	t.Parallel()
	unborn := &stagedRepo{t: t, dir: t.TempDir(), g: git.New(os.Environ())}
	unborn.git("init", "-q")
	unborn.write(contracts.ConfigFile, `{"schemaVersion": 3, "trees": []}`+"\n")
	if got, err := compareHeadProject(t, unborn, unborn.dir, "no commit yet"); err != nil || got.cfg != nil {
		t.Errorf("no commit yet: %+v, %v; want no configuration", got, err)
	}

	r := newStagedRepo(t, 30)
	r.write("docs/"+contracts.ConfigFile, `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "ctx"}]}`+"\n")
	r.write("docs/ctx/deep/er/x.md", "---\ntitle: X\n---\n")
	r.write("flat", "a file in HEAD, a directory on disk\n")
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", "nested configuration")
	deep := filepath.Join(r.dir, "docs", "ctx", "deep", "er")
	got, err := compareHeadProject(t, r, deep, "nested")
	if err != nil || got.cfgEntry.Path != "docs/"+contracts.ConfigFile || len(got.trees) != 1 || got.trees[0].prefix != "docs/ctx" {
		t.Errorf("nested: %+v, %v; want docs/%s declaring docs/ctx", got, err, contracts.ConfigFile)
	}

	r.git("rm", "-q", "--cached", "flat")
	if err := os.Remove(filepath.Join(r.dir, "flat")); err != nil {
		t.Fatal(err)
	}
	r.write("flat/"+contracts.ConfigFile, `{"schemaVersion": 3, "trees": []}`+"\n")
	r.git("reset", "-q")
	if got, err := compareHeadProject(t, r, filepath.Join(r.dir, "flat"), "a file in HEAD"); err != nil || got.cfgEntry.Path != contracts.ConfigFile {
		t.Errorf("a file in HEAD: %+v, %v; want the root's configuration", got, err)
	}

	r.write("docs/ctx/deep/"+contracts.ConfigFile+"/inside.md", "a directory named like the configuration\n")
	r.git("add", "-A", "docs")
	r.git("commit", "-q", "--no-verify", "-m", "a directory named like the configuration")
	_, err = compareHeadProject(t, r, deep, "a directory named like the configuration")
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeConfigInvalid {
		t.Errorf("a directory named like the configuration: %v, want %s", err, contracts.CodeConfigInvalid)
	}
}
