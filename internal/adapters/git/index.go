package git

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// IndexEntry is one stage-0 entry of the index (`git ls-files -s`).
type IndexEntry struct {
	Mode string // "100644", "100755", "120000" (symlink), "160000" (gitlink)
	ID   string // blob (or commit, for a gitlink)
	Path string // repository-relative
}

// IndexEntries lists the index entries under the repository-relative
// prefix ("" for all) of the repository at dir. It runs in the invoking
// repository's environment, so a hook's GIT_INDEX_FILE (a partial commit's
// temporary index) is the index read.
func (g *Git) IndexEntries(ctx context.Context, dir, prefix string) ([]IndexEntry, error) {
	args := []string{"ls-files", "--stage", "-z", "--full-name"}
	if prefix != "" && prefix != "." {
		args = append(args, "--", ":(top,literal)"+prefix)
	} else {
		args = append(args, "--", ":(top)")
	}
	out, err := g.Run(ctx, Invoking, dir, args...)
	if err != nil {
		return nil, err
	}
	var entries []IndexEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[2] != "0" {
			continue // conflicted entries have no single content
		}
		entries = append(entries, IndexEntry{Mode: f[0], ID: f[1], Path: string(path)})
	}
	return entries, nil
}

// StagedPaths lists the paths whose index entry differs from HEAD (every
// path when there is no HEAD yet), in the invoking repository.
func (g *Git) StagedPaths(ctx context.Context, dir string) ([]string, error) {
	// Without a commit, git diff --cached shows every staged path.
	out, err := g.Run(ctx, Invoking, dir, "diff", "--cached", "--name-only", "-z", "--no-renames", "--")
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// ReadBlobs reads blobs by id through one `git cat-file --batch` process in
// the invoking repository, calling fn for each in order. Missing objects
// are an error.
func (g *Git) ReadBlobs(ctx context.Context, dir string, ids []string, fn func(id string, data []byte) error) error {
	if len(ids) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, g.Path, "cat-file", "--batch")
	cmd.Dir = dir
	env, err := g.env(ctx, Invoking)
	if err != nil {
		return err
	}
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git cat-file: %w", err)
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, id := range ids {
			w.WriteString(id + "\n")
		}
		w.Flush()
		stdin.Close()
	}()
	r := bufio.NewReaderSize(stdout, 1<<16)
	readErr := readBatch(r, ids, fn)
	if readErr != nil {
		cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return readErr
	}
	if waitErr != nil {
		return fmt.Errorf("git cat-file --batch: %v: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// readBatch parses `<id> <type> <size>\n<content>\n` records.
func readBatch(r *bufio.Reader, ids []string, fn func(id string, data []byte) error) error {
	for _, id := range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file --batch: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return fmt.Errorf("git cat-file --batch: object %s: %s", id, strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return fmt.Errorf("git cat-file --batch: bad size in %q", header)
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(r, data); err != nil {
			return fmt.Errorf("git cat-file --batch: %w", err)
		}
		if err := fn(f[0], data[:size]); err != nil {
			return err
		}
	}
	return nil
}
