package operations

import (
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// minIDPrefix is the shortest prefix that may name an id: shorter ones
// would too often name several.
const minIDPrefix = 4

// resolvePrefix returns the one id among ids that starts with prefix (an
// id itself names itself). It returns "" when none does, and refuses an
// ambiguous prefix with ID_AMBIGUOUS listing the candidates; what names
// the kind of id for messages ("session", "cleanup run").
func resolvePrefix(prefix string, ids []string, what string) (string, error) {
	if len(prefix) < minIDPrefix {
		return "", nil
	}
	var found []string
	for _, id := range ids {
		if id == prefix {
			return id, nil
		}
		if strings.HasPrefix(id, prefix) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", contracts.Errorf(contracts.CodeIDAmbiguous, "%q names %d %ss (%s); give more of the id", prefix, len(found), what, strings.Join(found, ", ")).
		WithDetails(map[string]any{"candidates": found})
}
