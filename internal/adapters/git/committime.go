package git

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CommitTime is the committer date of a commit in gitDir.
func (g *Git) CommitTime(ctx context.Context, gitDir, commit string) (time.Time, error) {
	out, err := g.InRepo(ctx, gitDir, "show", "-s", "--no-show-signature", "--format=%ct", "--end-of-options", commit)
	if err != nil {
		return time.Time{}, err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("commit date of %s: %q is not a Unix time", commit, out)
	}
	return time.Unix(secs, 0).UTC(), nil
}
