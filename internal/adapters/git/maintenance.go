package git

import (
	"context"
	"strings"
)

// RefTips lists the commits the refs under prefix (such as
// "refs/remotes/origin/") point at, one per ref.
func (g *Git) RefTips(ctx context.Context, gitDir, prefix string) ([]string, error) {
	out, err := g.InRepo(ctx, gitDir, "for-each-ref", "--format=%(objectname)", "--", prefix)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// GCAuto compacts a repository when git's own thresholds say it is worth
// it (`git gc --auto`), in the foreground so the caller can measure what it
// freed and no background gc outlives the caller's lock.
func (g *Git) GCAuto(ctx context.Context, gitDir string) error {
	_, err := g.InRepo(ctx, gitDir, "-c", "gc.autoDetach=false", "gc", "--auto", "--quiet")
	return err
}
