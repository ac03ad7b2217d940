package git

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// MinVersion is the oldest git the tool needs: `rev-parse --path-format`
// (every repository lookup) first shipped in git 2.31; the other options it
// relies on (`--end-of-options` 2.24, `init --initial-branch` 2.28,
// `--object-format` 2.29) are older. CI runs Debian's git 2.39.
var MinVersion = [3]int{2, 31, 0}

// Version returns git's version as printed ("2.39.5") and its first
// three numbers. `git version` has no machine format; its first line is
// "git version <version>" on every platform git ships for.
func (g *Git) Version(ctx context.Context) (string, [3]int, error) {
	out, err := g.Run(ctx, Isolated, "", "version")
	if err != nil {
		return "", [3]int{}, err
	}
	line, _, _ := bytes.Cut(out, []byte("\n"))
	v, ok := strings.CutPrefix(string(line), "git version ")
	if !ok {
		return "", [3]int{}, fmt.Errorf("git version: unexpected output %q", line)
	}
	return v, parseVersion(v), nil
}

// parseVersion reads the leading numbers of "2.39.5", "2.45.0.windows.1"
// or "2.50.1 (Apple Git-155)"; missing numbers are 0.
func parseVersion(v string) [3]int {
	var n [3]int
	field, _, _ := strings.Cut(v, " ")
	for i, part := range strings.SplitN(field, ".", 4) {
		if i == 3 {
			break
		}
		x, err := strconv.Atoi(part)
		if err != nil {
			break
		}
		n[i] = x
	}
	return n
}

// VersionAtLeast compares versions as parsed by Version.
func VersionAtLeast(have, want [3]int) bool {
	for i := range have {
		if have[i] != want[i] {
			return have[i] > want[i]
		}
	}
	return true
}

// UserConfig reads a config key as git would for a command run in dir
// (system, global, and the repository dir lies in, if any); ok false when
// unset.
func (g *Git) UserConfig(ctx context.Context, dir, key string) (value string, ok bool, err error) {
	out, err := g.Run(ctx, Isolated, dir, "config", "--get", key)
	if err != nil {
		if ExitCode(err) == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	return strings.TrimSuffix(string(out), "\n"), true, nil
}

// UserConfigValues reads several keys as UserConfig does, in one git
// process: the value of each key that is set (the last one, as --get
// gives it), keyed by the name as asked. Keys are case-insensitive, as in
// git; names with a subsection are not supported.
func (g *Git) UserConfigValues(ctx context.Context, dir string, keys ...string) (map[string]string, error) {
	quoted := make([]string, len(keys))
	byLower := make(map[string]string, len(keys))
	for i, k := range keys {
		quoted[i] = regexp.QuoteMeta(strings.ToLower(k))
		byLower[strings.ToLower(k)] = k
	}
	out, err := g.Run(ctx, Isolated, dir, "config", "-z", "--get-regexp", "^("+strings.Join(quoted, "|")+")$")
	if err != nil {
		if ExitCode(err) == 1 {
			return map[string]string{}, nil
		}
		return nil, err
	}
	values := make(map[string]string, len(keys))
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		name, value, _ := strings.Cut(rec, "\n")
		if k, ok := byLower[strings.ToLower(name)]; ok {
			values[k] = value // later entries win, as for --get
		}
	}
	return values, nil
}

// URLRewrite is one url.<base>.insteadOf (or pushInsteadOf) setting.
type URLRewrite struct {
	Base    string // what URLs are rewritten to
	Key     string // insteadof or pushinsteadof
	Pattern string // the prefix that is rewritten
}

// URLRewrites lists the url.*.insteadOf and pushInsteadOf settings git
// applies to commands run in dir.
func (g *Git) URLRewrites(ctx context.Context, dir string) ([]URLRewrite, error) {
	args := []string{"config", "-z", "--get-regexp", `^url\..*\.(insteadof|pushinsteadof)$`}
	out, err := g.Run(ctx, Isolated, dir, args...)
	if err != nil {
		if ExitCode(err) == 1 {
			return nil, nil
		}
		return nil, err
	}
	var rw []URLRewrite
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		name, value, _ := strings.Cut(rec, "\n")
		rest, ok := strings.CutPrefix(name, "url.")
		if !ok {
			continue
		}
		i := strings.LastIndexByte(rest, '.')
		if i < 0 {
			continue
		}
		rw = append(rw, URLRewrite{Base: rest[:i], Key: rest[i+1:], Pattern: value})
	}
	return rw, nil
}
