package sources

import (
	"context"
	"errors"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// TestPublishKilledAfterLandingConverges: once a push lands, the tool
// moves the cache's remote-tracking ref and then records the new tip; a
// process killed between the two (the kill loop of finish --publish hit
// it) must not make the cache look tampered with: the next publication
// pushes again (a no-op) and records the commit. Here the push callback
// moves the ref itself and fails, which leaves the same state. A ref
// moved anywhere else is still refused, and a rejected push leaves no
// mark behind.
func TestPublishKilledAfterLandingConverges(t *testing.T) {
	ctx := context.Background()
	gh := fakegithub.New(t)
	c1 := gh.Publish("acme/x", "main", map[string]string{"NODE.md": validRoot})
	m := newManaged(t)
	conn := gitConn("acme/x", "main", ".")
	if _, err := m.Sync(ctx, conn, false); err != nil {
		t.Fatal(err)
	}
	cache := m.Home.Path("repos", "acme", "x.git")
	next := gh.Git(cache, "commit-tree", "-p", c1, "-m", "published", c1+"^{tree}")
	push := func() (bool, error) {
		res, err := m.Git.Push(ctx, cache, "origin", next, "main")
		return res == git.Pushed, err
	}

	killed := errors.New("killed after the push landed")
	if _, err := m.Publish(ctx, cache, "acme/x", "main", ".", next, func() (bool, error) {
		if landed, err := push(); err != nil || !landed {
			t.Fatalf("push: %v, %v", landed, err)
		}
		gh.Git(cache, "update-ref", "refs/remotes/origin/main", next)
		return false, killed
	}); !errors.Is(err, killed) {
		t.Fatalf("Publish: %v, want the push's error", err)
	}
	if tip, err := m.Tip(ctx, "acme/x", "main"); err != nil || tip != next {
		t.Fatalf("Tip after a publication killed once it landed: %q, %v; want %s", tip, err, next)
	}
	if landed, err := m.Publish(ctx, cache, "acme/x", "main", ".", next, push); err != nil || !landed {
		t.Fatalf("publishing again: %v, %v", landed, err)
	}
	rec, _ := m.LastFetch("acme/x", "main")
	if rec.Commit != next || rec.Publishing != "" {
		t.Fatalf("record after the publication: %+v, want commit %s and nothing publishing", rec, next)
	}
	if cur, err := m.Current(ctx, conn); err != nil || cur.Commit != next {
		t.Fatalf("Current after the publication: %+v, %v", cur, err)
	}

	// A rejected push (not a fast-forward) forgets its mark: the
	// rejected commit is never accepted as the branch's tip.
	stale := gh.Git(cache, "commit-tree", "-p", c1, "-m", "not a fast-forward", c1+"^{tree}")
	if landed, err := m.Publish(ctx, cache, "acme/x", "main", ".", stale, func() (bool, error) {
		res, err := m.Git.Push(ctx, cache, "origin", stale, "main")
		return res == git.Pushed, err
	}); err != nil || landed {
		t.Fatalf("publishing a commit that is not a fast-forward: %v, %v", landed, err)
	}
	if rec, _ := m.LastFetch("acme/x", "main"); rec.Publishing != "" {
		t.Fatalf("a rejected push left %s marked as publishing", rec.Publishing)
	}
	gh.Git(cache, "update-ref", "refs/remotes/origin/main", stale)
	_, err := m.Tip(ctx, "acme/x", "main")
	wantCode(t, err, contracts.CodeCacheTampered)
	_, err = m.Publish(ctx, cache, "acme/x", "main", ".", stale, func() (bool, error) {
		t.Fatal("pushed from a cache whose ref was moved")
		return false, nil
	})
	wantCode(t, err, contracts.CodeCacheTampered)
}
