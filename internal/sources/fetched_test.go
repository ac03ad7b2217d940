package sources

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
	"github.com/google/go-cmp/cmp"
)

// TestSyncRecordsFetchTimes: a fetch (first clone or later) records when
// it began and what it brought, per branch; an offline sync fetches
// nothing and records nothing; a damaged record is an unknown time.
func TestSyncRecordsFetchTimes(t *testing.T) {
	ctx := context.Background()
	gh := fakegithub.New(t)
	c1 := gh.Publish("acme/handbook", "main", map[string]string{"docs/NODE.md": validRoot})
	d1 := gh.Publish("acme/handbook", "dev", map[string]string{"docs/NODE.md": validRoot})
	m := newManaged(t)
	if _, ok := m.LastFetch("acme/handbook", "main"); ok {
		t.Fatal("a fetch time before any sync")
	}

	before := time.Now()
	if _, err := m.Sync(ctx, gitConn("Acme/Handbook", "main", "docs"), false); err != nil {
		t.Fatal(err)
	}
	rec, ok := m.LastFetch("ACME/handbook", "main")
	if !ok || rec.Commit != c1 || rec.At.Before(before.Add(-time.Second)) || rec.At.After(time.Now()) {
		t.Fatalf("after the first sync: %+v, %v (sync began %v)", rec, ok, before)
	}
	if _, err := m.Sync(ctx, gitConn("acme/handbook", "dev", "docs"), false); err != nil {
		t.Fatal(err)
	}
	if dev, ok := m.LastFetch("acme/handbook", "dev"); !ok || dev.Commit != d1 {
		t.Errorf("dev: %+v, %v", dev, ok)
	}
	if again, _ := m.LastFetch("acme/handbook", "main"); !cmp.Equal(again, rec) {
		t.Errorf("recording dev changed main: %+v, want %+v", again, rec)
	}

	c2 := gh.Publish("acme/handbook", "main", map[string]string{"docs/NODE.md": validRoot, "docs/a.md": "---\ntitle: A\n---\n"})
	if _, err := m.Sync(ctx, gitConn("acme/handbook", "main", "docs"), true); err != nil {
		t.Fatal(err)
	}
	if again, _ := m.LastFetch("acme/handbook", "main"); !cmp.Equal(again, rec) {
		t.Errorf("offline sync changed the record: %+v, want %+v", again, rec)
	}
	if _, err := m.Sync(ctx, gitConn("acme/handbook", "main", "docs"), false); err != nil {
		t.Fatal(err)
	}
	if now, _ := m.LastFetch("acme/handbook", "main"); now.Commit != c2 || now.At.Before(rec.At) {
		t.Errorf("second fetch: %+v, first %+v", now, rec)
	}

	dir, name, err := m.fetchedFile("acme/handbook")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/"+name, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.LastFetch("acme/handbook", "main"); ok {
		t.Error("a damaged record gave a fetch time")
	}
}
