// Package idprefix resolves the unique id prefixes people type for
// sessions and cleanup runs.
package idprefix

import (
	"fmt"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// MinLength is the shortest prefix that may name a session or a cleanup
// run: shorter ones would match by accident far too often.
const MinLength = 4

// Resolve returns the one id among ids that prefix names: the id
// itself, or a unique prefix of at least MinLength characters (compared
// without regard to case, since ids are lowercase hex people retype).
// Several matches are ID_AMBIGUOUS (exit 3) with the sorted candidates in
// details. No match is "" and a nil error: the caller knows which
// NOT_FOUND applies. what names the kind of id in messages ("session").
func Resolve(prefix string, ids []string, what string) (string, error) {
	if slices.Contains(ids, prefix) {
		return prefix, nil
	}
	if len(prefix) < MinLength {
		return "", contracts.Errorf(contracts.CodeUsage, "%q is too short to name a %s: give its id or at least %d of its first characters", prefix, what, MinLength).
			WithDetails(map[string]any{"prefix": prefix})
	}
	var found []string
	for _, id := range ids {
		if len(id) >= len(prefix) && strings.EqualFold(id[:len(prefix)], prefix) && !slices.Contains(found, id) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	slices.Sort(found)
	return "", contracts.Errorf(contracts.CodeIDAmbiguous, "%q names %d %ss (%s); give more characters of the id", prefix, len(found), what, ListSome(found, 5)).
		WithDetails(map[string]any{"prefix": prefix, "candidates": found})
}

// ListSome joins up to n items, saying how many more there are.
func ListSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
