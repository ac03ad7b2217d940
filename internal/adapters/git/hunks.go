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
