package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
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
	Status   byte
	From     string
	Path     string
	OldMode  string
	NewMode  string
	OldBlob  string
	NewBlob  string
	Hunks    []Hunk // filled by CommitHunks only
	Binary   bool   // filled by CommitHunks only: git shows no text diff
	hasPatch bool
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
	var stderr bytes.Buffer
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

// CommitParent is a commit diffed against one parent ("" for a root
// commit) by CommitHunks.
type CommitParent struct{ Commit, Parent string }

// CommitHunks diffs each commit against the parent given with it, as one
// `git diff-tree --stdin -p -U0` process (renames detected), and calls fn
// with each commit's changes and their hunks. A commit without changes is
// not reported.
func (g *Git) CommitHunks(ctx context.Context, r Repo, commits []CommitParent, fn func(commit string, changes []RawChange) error) error {
	if len(commits) == 0 {
		return nil
	}
	s, err := g.StartHunks(ctx, r)
	if err != nil {
		return err
	}
	for _, c := range commits {
		s.Send(c)
	}
	return s.Wait(fn)
}

// HunkStream is a running `git diff-tree --stdin -p -U0 --raw -z`: commits
// are sent while other work goes on (git diffs them meanwhile), and Wait
// parses what it wrote.
type HunkStream struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	in             *bufio.Writer
	stdout, stderr bytes.Buffer
	err            error
}

// StartHunks starts the diff-tree process of a HunkStream against r.
func (g *Git) StartHunks(ctx context.Context, r Repo) (*HunkStream, error) {
	dir, args := r.args([]string{"diff-tree", "--stdin", "-r", "--root", "-M", "-p", "-U0", "--raw", "-z",
		"--no-abbrev", "--no-color", "--no-ext-diff", "--no-textconv"})
	cmd, err := g.command(ctx, Isolated, dir, args...)
	if err != nil {
		return nil, err
	}
	s := &HunkStream{cmd: cmd}
	cmd.Stdout, cmd.Stderr = &s.stdout, &s.stderr
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git diff-tree: %w", err)
	}
	s.in = bufio.NewWriterSize(s.stdin, 4096)
	return s, nil
}

// Send asks for one commit's diff against the parent given ("" for a root
// commit). A write error is kept for Wait.
func (s *HunkStream) Send(c CommitParent) {
	if s.err != nil {
		return
	}
	line := strings.TrimSpace(c.Commit+" "+c.Parent) + "\n"
	if _, err := s.in.WriteString(line); err != nil {
		s.err = err
	}
}

// Wait ends the input, waits for git and calls fn with each commit's
// changes, in the order sent.
func (s *HunkStream) Wait(fn func(commit string, changes []RawChange) error) error {
	if err := s.in.Flush(); err != nil && s.err == nil {
		s.err = err
	}
	s.stdin.Close()
	werr := s.cmd.Wait()
	switch {
	case werr != nil:
		return &ExitError{Args: []string{"diff-tree", "--stdin"}, Code: exitCodeOf(werr), Stderr: s.stderr.String()}
	case s.err != nil:
		return fmt.Errorf("git diff-tree --stdin: %w", s.err)
	}
	return parseDiffTree(s.stdout.Bytes(), fn)
}

func exitCodeOf(err error) int {
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		return xe.ExitCode()
	}
	return -1
}

// parseDiffTree reads diff-tree --stdin -z --raw -p output: per commit,
// "<id>\0", its raw entries, "\0", then one "diff --git" section per raw
// entry, in the same order, whose -U0 hunks are counted to skip their
// lines; the next commit's id follows the last section directly.
func parseDiffTree(out []byte, fn func(string, []RawChange) error) error {
	p := &patchReader{b: out}
	for p.off < len(p.b) {
		id, ok := p.token()
		if !ok || !isHexID(id) {
			return fmt.Errorf("git diff-tree: unexpected output at byte %d", p.off)
		}
		var changes []RawChange
		for {
			tok, ok := p.token()
			if !ok {
				return errors.New("git diff-tree: truncated raw output")
			}
			if tok == "" {
				break
			}
			ch, err := parseRawMeta(tok)
			if err != nil {
				return err
			}
			ch.Path, _ = p.token()
			ch.From = ch.Path
			if ch.Status == 'R' || ch.Status == 'C' {
				ch.Path, _ = p.token()
			}
			changes = append(changes, ch)
		}
		for i := range changes {
			if err := p.section(&changes[i]); err != nil {
				return fmt.Errorf("git diff-tree %s: %w", id, err)
			}
		}
		if err := fn(id, changes); err != nil {
			return err
		}
	}
	return nil
}

type patchReader struct {
	b   []byte
	off int
}

// token reads up to the next NUL.
func (p *patchReader) token() (string, bool) {
	i := bytes.IndexByte(p.b[p.off:], 0)
	if i < 0 {
		return "", false
	}
	t := string(p.b[p.off : p.off+i])
	p.off += i + 1
	return t, true
}

// line reads up to and without the next newline.
func (p *patchReader) line() []byte {
	i := bytes.IndexByte(p.b[p.off:], '\n')
	if i < 0 {
		l := p.b[p.off:]
		p.off = len(p.b)
		return l
	}
	l := p.b[p.off : p.off+i]
	p.off += i + 1
	return l
}

// peekLine is the next line without consuming it.
func (p *patchReader) peekLine() []byte {
	rest := p.b[p.off:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		return rest[:i]
	}
	return rest
}

// section reads one file's "diff --git" section into ch.
func (p *patchReader) section(ch *RawChange) error {
	if !bytes.HasPrefix(p.line(), []byte("diff --git ")) {
		return errors.New("expected a diff --git line")
	}
	for p.off < len(p.b) {
		l := p.peekLine()
		switch {
		case bytes.HasPrefix(l, []byte("diff --git ")), bytes.IndexByte(l, 0) >= 0:
			return nil // the next section, or the next commit's id
		case bytes.HasPrefix(l, []byte("Binary files ")):
			ch.Binary = true
			p.line()
		case bytes.HasPrefix(l, []byte("@@ ")):
			h, err := parseHunk(p.line())
			if err != nil {
				return err
			}
			ch.Hunks = append(ch.Hunks, h)
			for n := h.OldCount + h.NewCount; n > 0 && p.off < len(p.b); {
				if l := p.line(); len(l) == 0 || l[0] != '\\' {
					n--
				}
			}
			for bytes.HasPrefix(p.peekLine(), []byte("\\")) {
				p.line() // "\ No newline at end of file" after the last line
			}
		default:
			p.line() // an extended header line, "---" or "+++"
		}
	}
	return nil
}

// parseHunk reads "@@ -a[,b] +c[,d] @@...".
func parseHunk(l []byte) (Hunk, error) {
	f := strings.Fields(string(l))
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return Hunk{}, fmt.Errorf("unexpected hunk header %q", l)
	}
	var h Hunk
	var err1, err2 error
	h.OldStart, h.OldCount, err1 = hunkSide(f[1][1:])
	h.NewStart, h.NewCount, err2 = hunkSide(f[2][1:])
	if err1 != nil || err2 != nil {
		return Hunk{}, fmt.Errorf("unexpected hunk header %q", l)
	}
	return h, nil
}

func hunkSide(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	if !ok {
		return start, 1, nil
	}
	count, err = strconv.Atoi(b)
	return start, count, err
}

// TreeModes parses a tree object's entries into name → mode ("100644",
// "100755", "120000", "40000", "160000").
func TreeModes(data []byte, idLen int) map[string]string {
	out := map[string]string{}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp < 0 {
			break
		}
		nul := bytes.IndexByte(data[sp:], 0)
		if nul < 0 || sp+nul+1+idLen > len(data) {
			break
		}
		out[string(data[sp+1:sp+nul])] = string(data[:sp])
		data = data[sp+nul+1+idLen:]
	}
	return out
}
