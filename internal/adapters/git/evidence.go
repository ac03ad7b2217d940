package git

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Repo names a repository evidence is read from: a work tree (Dir, git
// run inside it) or a bare cache (GitDir). Either way git runs isolated
// from the invoking repository's variables.
type Repo struct {
	Dir    string
	GitDir string
}

func (r Repo) args(args []string) (string, []string) {
	if r.GitDir != "" {
		return r.GitDir, append([]string{"--git-dir=" + r.GitDir}, args...)
	}
	return r.Dir, args
}

// RunIn runs git against r and returns its stdout.
func (g *Git) RunIn(ctx context.Context, r Repo, args ...string) ([]byte, error) {
	dir, a := r.args(args)
	return g.Run(ctx, Isolated, dir, a...)
}

// OpenRepoObjects starts `git cat-file --batch` against r. Close it.
func (g *Git) OpenRepoObjects(ctx context.Context, r Repo) (*Batch, error) {
	dir, a := r.args([]string{"cat-file", "--batch"})
	return g.openBatch(ctx, Isolated, dir, a...)
}

// RawChange is one entry of git's raw diff output: Status is its letter
// (A, C, D, M, R, T, U, X); Path the path after the change, From the path
// before it (differs only for R and C).
type RawChange struct {
	Status  byte
	From    string
	Path    string
	OldMode string
	NewMode string
	OldBlob string
	NewBlob string
	Hunks   []Hunk // filled by CommitHunks only
	Binary  bool   // filled by CommitHunks only: git shows no text diff
}

// Hunk is one -U0 hunk header "@@ -OldStart,OldCount +NewStart,NewCount @@".
type Hunk struct{ OldStart, OldCount, NewStart, NewCount int }

// LogCommit is one commit of FirstParentLog with its changes against its
// first parent.
type LogCommit struct {
	ID      string
	Changes []RawChange
}

// FirstParentLog walks head's first-parent history, newest first, with
// each commit's changes against its first parent (renames detected), as
// one `git log --raw -z` process, and calls fn for each commit until fn
// returns false, which stops git.
func (g *Git) FirstParentLog(ctx context.Context, r Repo, head string, fn func(LogCommit) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dir, args := r.args([]string{"log", "--first-parent", "--diff-merges=first-parent", "-M", "--raw", "-z",
		"--no-abbrev", "--no-color", "--no-ext-diff", "--format=%x00%H", "--end-of-options", head, "--"})
	cmd, err := g.command(ctx, Isolated, dir, args...)
	if err != nil {
		return err
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git log: %w", err)
	}
	stopped, perr := parseLog(bufio.NewReaderSize(out, 256<<10), fn)
	if stopped {
		cancel()
	}
	werr := cmd.Wait()
	switch {
	case perr != nil:
		return fmt.Errorf("git log: %w", perr)
	case stopped:
		return nil
	case werr != nil:
		return fmt.Errorf("git log: %v%s", werr, stderrNote(&stderr))
	}
	return nil
}

// parseLog reads `log --format=%x00%H --raw -z` output: NUL-separated
// tokens, where an empty token introduces a commit id and a token
// starting with ":" (after the newline that ends the commit line) is a
// raw entry followed by one path, or two for R and C.
func parseLog(br *bufio.Reader, fn func(LogCommit) bool) (stopped bool, err error) {
	next := func() (string, bool, error) {
		tok, err := br.ReadString(0)
		if err == io.EOF {
			return tok, tok != "", nil
		}
		if err != nil {
			return "", false, err
		}
		return tok[:len(tok)-1], true, nil
	}
	var cur *LogCommit
	flush := func() bool {
		if cur == nil {
			return true
		}
		c := *cur
		cur = nil
		return fn(c)
	}
	first := true
	for {
		tok, ok, err := next()
		if err != nil {
			return false, err
		}
		if !ok {
			return !flush(), nil
		}
		if first {
			first = false
			if tok != "" {
				return false, fmt.Errorf("unexpected output %q", tok)
			}
			continue
		}
		switch {
		case tok == "":
			continue // the NUL that ends a commit without changes
		case strings.HasPrefix(tok, ":") || strings.HasPrefix(tok, "\n:"):
			if cur == nil {
				return false, errors.New("raw entry before a commit")
			}
			ch, err := parseRawMeta(strings.TrimPrefix(tok, "\n"))
			if err != nil {
				return false, err
			}
			if ch.Path, _, err = next(); err != nil {
				return false, err
			}
			ch.From = ch.Path
			if ch.Status == 'R' || ch.Status == 'C' {
				if ch.Path, _, err = next(); err != nil {
					return false, err
				}
			}
			cur.Changes = append(cur.Changes, ch)
		case isHexID(tok):
			if !flush() {
				return true, nil
			}
			cur = &LogCommit{ID: tok}
		default:
			return false, fmt.Errorf("unexpected output %q", tok)
		}
	}
}

func isHexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// parseRawMeta reads ":<old mode> <new mode> <old id> <new id> <status>[score]".
func parseRawMeta(s string) (RawChange, error) {
	f := strings.Fields(strings.TrimPrefix(s, ":"))
	if len(f) != 5 || f[4] == "" {
		return RawChange{}, fmt.Errorf("unexpected raw entry %q", s)
	}
	return RawChange{OldMode: f[0], NewMode: f[1], OldBlob: f[2], NewBlob: f[3], Status: f[4][0]}, nil
}
