package git

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// quarantineRepo is a repository with one commit (docs/NODE.md) and a
// capture of its work tree through a quarantine: a new document added and
// written as a tree.
func quarantineRepo(t *testing.T) (r *indexRepo, g *Git, q *Quarantine, w WorkTree) {
	t.Helper()
	r = newIndexRepo(t)
	r.write("docs/NODE.md", "docs\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "base")
	g = New(r.env)
	q, err := g.NewQuarantine(filepath.Join(r.dir, ".git"), "session-1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Remove() })
	w = WorkTree{GitDir: filepath.Join(r.dir, ".git"), Dir: r.dir, Index: filepath.Join(t.TempDir(), "index"), Quarantine: q}
	if err := g.ReadTree(context.Background(), w, "HEAD^{tree}"); err != nil {
		t.Fatal(err)
	}
	return r, g, q, w
}

func hasObject(r *indexRepo, id string) bool {
	_, err := New(r.env).InRepo(context.Background(), filepath.Join(r.dir, ".git"), "cat-file", "-e", id)
	return err == nil
}

// TestQuarantineHoldsNewObjects: what a capture through a quarantine
// writes is readable through it (with the repository's own objects) and
// absent from the repository until Migrate moves it in; Remove discards
// it.
func TestQuarantineHoldsNewObjects(t *testing.T) {
	for _, accept := range []bool{false, true} {
		r, g, q, w := quarantineRepo(t)
		ctx := context.Background()
		r.write("docs/new.md", "a new document\n")
		blob := r.git("hash-object", "docs/new.md")
		base := r.git("rev-parse", "HEAD:docs/NODE.md")
		if err := g.AddSubtree(ctx, w, "docs", nil); err != nil {
			t.Fatal(err)
		}
		tree, err := g.WriteTree(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{blob, tree} {
			if hasObject(r, id) {
				t.Fatalf("%s was written into the repository's objects before it was accepted", id)
			}
		}
		sizes, err := q.ObjectSizes(ctx, []string{blob, base, strings.Repeat("0", len(blob))})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int64{15, 5, -1}, sizes); diff != "" {
			t.Errorf("ObjectSizes (-want +got):\n%s", diff)
		}
		changes, err := q.DiffTrees(ctx, "HEAD", tree, true)
		if err != nil || len(changes) != 1 || changes[0].Path != "docs/new.md" || changes[0].NewID != blob {
			t.Errorf("DiffTrees through the quarantine: %v, %+v", err, changes)
		}
		if entries, err := q.LsTree(ctx, tree, true); err != nil || len(entries) != 3 {
			t.Errorf("LsTree through the quarantine: %v, %+v", err, entries)
		}
		b, err := q.OpenBatch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := b.Read([]string{blob})
		b.Close()
		if err != nil || string(objs[0].Data) != "a new document\n" {
			t.Errorf("the batch through the quarantine read %v, %+v", err, objs)
		}
		if _, err := g.inRepoWith(ctx, w.GitDir, q, nil, "update-ref", "refs/heads/sneaky", "HEAD"); err == nil {
			t.Errorf("a ref was updated inside the quarantine")
		}

		if accept {
			if err := q.Migrate(); err != nil {
				t.Fatal(err)
			}
		}
		if err := q.Remove(); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{blob, tree} {
			if hasObject(r, id) != accept {
				t.Errorf("accepted %v: %s in the repository's objects is %v", accept, id, !accept)
			}
		}
		r.git("fsck", "--strict", "--no-dangling")
		if left, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", quarantinePrefix+"*")); len(left) > 0 {
			t.Errorf("quarantine left behind: %v", left)
		}
	}
}

// TestQuarantineMigratesPacks: a blob over core.bigFileThreshold, which
// git add streams into a pack of the quarantine, moves in pack and all.
func TestQuarantineMigratesPacks(t *testing.T) {
	r, g, q, w := quarantineRepo(t)
	ctx := context.Background()
	r.git("config", "core.bigFileThreshold", "1k")
	r.write("docs/big.bin", strings.Repeat("big ", 1024))
	blob := r.git("hash-object", "docs/big.bin")
	if err := g.AddSubtree(ctx, w, "docs", nil); err != nil {
		t.Fatal(err)
	}
	if packs, _ := filepath.Glob(filepath.Join(q.dir, "pack", "*.pack")); len(packs) != 1 {
		t.Fatalf("git add wrote %d packs into the quarantine, want 1 (the test's premise)", len(packs))
	}
	if hasObject(r, blob) {
		t.Fatal("the blob is in the repository before Migrate")
	}
	if err := q.Migrate(); err != nil {
		t.Fatal(err)
	}
	if !hasObject(r, blob) {
		t.Error("the packed blob is not in the repository after Migrate")
	}
	r.git("fsck", "--strict")
}

// TestNewQuarantineRemovesItsOwnersLeftovers: a quarantine a killed run
// of the same owner left is removed; another owner's is not.
func TestNewQuarantineRemovesItsOwnersLeftovers(t *testing.T) {
	r := newIndexRepo(t)
	objects := filepath.Join(r.dir, ".git", "objects")
	mine, theirs := filepath.Join(objects, quarantinePrefix+"s1-123"), filepath.Join(objects, quarantinePrefix+"s2-123")
	for _, d := range []string{mine, theirs} {
		if err := os.MkdirAll(filepath.Join(d, "ab"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	q, err := New(r.env).NewQuarantine(filepath.Join(r.dir, ".git"), "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Remove()
	if _, err := os.Stat(mine); !os.IsNotExist(err) {
		t.Errorf("the owner's leftover quarantine is still there (%v)", err)
	}
	if _, err := os.Stat(theirs); err != nil {
		t.Errorf("another owner's quarantine was removed: %v", err)
	}
	if _, err := New(r.env).NewQuarantine(filepath.Join(r.dir, ".git"), "../x"); err == nil {
		t.Error("an owner naming a path was accepted")
	}
}

func TestObjectSizes(t *testing.T) {
	r := newIndexRepo(t)
	r.write("a.txt", "hello\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "a")
	blob := r.git("rev-parse", "HEAD:a.txt")
	got, err := New(r.env).ObjectSizes(context.Background(), filepath.Join(r.dir, ".git"), []string{blob, "HEAD:missing.txt", blob})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{6, -1, 6}, got); diff != "" {
		t.Errorf("ObjectSizes (-want +got):\n%s", diff)
	}
	if _, err := New(r.env).ObjectSizes(context.Background(), filepath.Join(r.dir, ".git"), []string{"a b"}); err == nil {
		t.Error("a name with a space was sent to cat-file")
	}
}

func TestPackCopyOrder(t *testing.T) {
	names := []string{"pack-1.idx", "pack-1.rev", "pack-1.pack", "pack-1.bitmap", "pack-1.keep"}
	slices.SortStableFunc(names, func(a, b string) int { return packCopyOrder(a) - packCopyOrder(b) })
	if diff := cmp.Diff([]string{"pack-1.keep", "pack-1.pack", "pack-1.rev", "pack-1.bitmap", "pack-1.idx"}, names); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}
