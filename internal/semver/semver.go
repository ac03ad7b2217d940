// Package semver parses and orders semantic versions as semver.org 2.0.0
// defines them (MAJOR.MINOR.PATCH, an optional pre-release after "-" and
// build metadata after "+"). A leading "v", as git tags and Go modules
// spell versions, is accepted and dropped.
package semver

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed semantic version.
type Version struct {
	Major, Minor, Patch uint64
	// Pre is the pre-release's dot-separated identifiers ("rc", "1"); none
	// for a release.
	Pre []string
	// Build is the build metadata's identifiers; they take no part in
	// precedence.
	Build []string
}

// Parse reads a semantic version, with or without a leading "v".
func Parse(s string) (Version, error) {
	var v Version
	rest := strings.TrimPrefix(s, "v")
	if i := strings.IndexByte(rest, '+'); i >= 0 {
		build, err := identifiers(rest[i+1:], false)
		if err != nil {
			return Version{}, fmt.Errorf("version %q: build metadata: %w", s, err)
		}
		v.Build, rest = build, rest[:i]
	}
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		pre, err := identifiers(rest[i+1:], true)
		if err != nil {
			return Version{}, fmt.Errorf("version %q: pre-release: %w", s, err)
		}
		v.Pre, rest = pre, rest[:i]
	}
	core := strings.Split(rest, ".")
	if len(core) != 3 {
		return Version{}, fmt.Errorf("version %q: want MAJOR.MINOR.PATCH", s)
	}
	for i, p := range []*uint64{&v.Major, &v.Minor, &v.Patch} {
		n, err := numeric(core[i])
		if err != nil {
			return Version{}, fmt.Errorf("version %q: %w", s, err)
		}
		*p = n
	}
	return v, nil
}

// identifiers splits a pre-release or build part into its non-empty
// identifiers of [0-9A-Za-z-]; numeric pre-release identifiers have no
// leading zero.
func identifiers(s string, pre bool) ([]string, error) {
	ids := strings.Split(s, ".")
	for _, id := range ids {
		if id == "" {
			return nil, fmt.Errorf("empty identifier in %q", s)
		}
		if strings.Trim(id, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-") != "" {
			return nil, fmt.Errorf("identifier %q: only [0-9A-Za-z-] allowed", id)
		}
		if pre && allDigits(id) && len(id) > 1 && id[0] == '0' {
			return nil, fmt.Errorf("numeric identifier %q has a leading zero", id)
		}
	}
	return ids, nil
}

// numeric reads a core number: digits, no leading zero.
func numeric(s string) (uint64, error) {
	if s == "" || !allDigits(s) || (len(s) > 1 && s[0] == '0') {
		return 0, fmt.Errorf("%q is not a number without leading zeros", s)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	return n, nil
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Valid reports whether s parses.
func Valid(s string) bool {
	_, err := Parse(s)
	return err == nil
}

// String is the version without a "v".
func (v Version) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if len(v.Pre) > 0 {
		s += "-" + strings.Join(v.Pre, ".")
	}
	if len(v.Build) > 0 {
		s += "+" + strings.Join(v.Build, ".")
	}
	return s
}

// Prerelease reports a pre-release version (0.0.0-dev is one).
func (v Version) Prerelease() bool { return len(v.Pre) > 0 }

// Compare orders two versions by precedence (semver.org §11): -1 when v
// comes before w, 0 when they have the same precedence (build metadata is
// ignored), +1 after.
func (v Version) Compare(w Version) int {
	if c := cmp.Compare(v.Major, w.Major); c != 0 {
		return c
	}
	if c := cmp.Compare(v.Minor, w.Minor); c != 0 {
		return c
	}
	if c := cmp.Compare(v.Patch, w.Patch); c != 0 {
		return c
	}
	// A release comes after all of its pre-releases.
	switch {
	case len(v.Pre) == 0 && len(w.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(w.Pre) == 0:
		return -1
	}
	for i := range min(len(v.Pre), len(w.Pre)) {
		if c := compareIdentifier(v.Pre[i], w.Pre[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(v.Pre), len(w.Pre))
}

// compareIdentifier orders pre-release identifiers: numeric ones by value
// and before alphanumeric ones, which compare in ASCII order.
func compareIdentifier(a, b string) int {
	an, bn := allDigits(a), allDigits(b)
	switch {
	case an && bn:
		// No leading zeros: a longer number is a larger one.
		if c := cmp.Compare(len(a), len(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

// Compare parses and orders two version strings; an error names the one
// that does not parse.
func Compare(a, b string) (int, error) {
	va, err := Parse(a)
	if err != nil {
		return 0, err
	}
	vb, err := Parse(b)
	if err != nil {
		return 0, err
	}
	return va.Compare(vb), nil
}
