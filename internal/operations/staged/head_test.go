package staged

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// TestHeadProjectAgreesWithListing: what headProject asks of cat-file (the
// configuration, its trees, HEAD's entry at each) equals what project and
// lookupHeads read from ls-tree, for a plain tree, a tree at the
// repository's root, a gitlink whose commit the repository has and a tree
// HEAD does not hold; and a configuration committed as a symlink (a
// symlink on disk too) is still refused, never followed.
func TestHeadProjectAgreesWithListing(t *testing.T) {
	r := newStagedRepo(t, 30)
	ctx := context.Background()
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
		run := &run{g: r.g, dir: r.dir, top: r.dir, commonDir: filepath.Join(r.dir, ".git")}
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
