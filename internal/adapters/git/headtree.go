package git

import (
	"context"
	"errors"
	"strings"
)

// HeadTree returns the id of HEAD's root tree in the invoking repository,
// "" before the first commit.
func (g *Git) HeadTree(ctx context.Context, dir string) (string, error) {
	out, err := g.Run(ctx, Invoking, dir, "rev-parse", "--verify", "-q", "HEAD^{tree}")
	if err != nil {
		var xe *ExitError
		if errors.As(err, &xe) && xe.Code == 1 {
			return "", nil // no commit yet
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
