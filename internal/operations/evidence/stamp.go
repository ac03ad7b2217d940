package evidence

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/evidence"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// stampDoc is one named document being stamped.
type stampDoc struct {
	file   string
	data   []byte
	mode   os.FileMode
	traces []*trace
}

// Stamp rewrites the sources entries of the named documents after their
// code was re-read: each entry's path and lines are carried from its
// commit to the head of its repository (renames and hunks followed, as
// drift does), and its commit and sha256 set to the head's. Only those
// fields change, as text edits of the frontmatter; every other byte is
// kept. Any entry that cannot be stamped (malformed, its file deleted or
// not a regular file, all its lines removed, out of range, an unavailable
// repository) refuses the whole request before anything is written.
func Stamp(ctx context.Context, env operations.Env, files []string) (*contracts.StampResult, error) {
	repos, err := newEvidenceRepos(ctx, env, "")
	if err != nil {
		return nil, err
	}
	var docs []*stampDoc
	for _, f := range files {
		d, err := readStampDoc(env.Abs(f))
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	groups := map[*evidenceRepo][]*trace{}
	var order []*evidenceRepo
	for _, d := range docs {
		for _, t := range d.traces {
			r, err := repos.get(ctx, t.c.src.Repository)
			if err != nil {
				return nil, err
			}
			if r.Unavailable != "" {
				return nil, unresolved(d.file, t, r.Unavailable)
			}
			if _, ok := groups[r]; !ok {
				order = append(order, r)
			}
			groups[r] = append(groups[r], t)
		}
	}
	digests := map[*trace]string{}
	heads := map[*trace]string{}
	for _, r := range order {
		ts := groups[r]
		if err := traceAll(ctx, env.Git, r, ts); err != nil {
			return nil, err
		}
		var paths []string
		for _, t := range ts {
			paths = append(paths, t.path)
		}
		found, err := readCited(ctx, env.Git, r.Repo, r.Head, paths)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			d, err := stampDigest(t, found[t.path])
			if err != nil {
				return nil, unresolved(t.c.doc, t, err.Error())
			}
			digests[t], heads[t] = d, r.Head
		}
	}
	res := &contracts.StampResult{SchemaVersion: contracts.CLIVersion, Documents: []contracts.StampedDocument{}}
	var writes []*stampDoc
	var outs [][]byte
	for _, d := range docs {
		sd := contracts.StampedDocument{File: d.file, Sources: []contracts.StampedSource{}}
		var stamps []tree.SourceStamp
		for _, t := range d.traces {
			st := tree.SourceStamp{Index: t.c.src.Index, Path: t.path, Commit: heads[t], Sha256: digests[t]}
			if !t.rng.Whole() {
				st.Lines = t.rng.String()
			}
			stamps = append(stamps, st)
			ss := contracts.StampedSource{Index: st.Index, Path: st.Path, Lines: st.Lines, Commit: st.Commit, Sha256: st.Sha256, Repository: t.c.src.Repository}
			if st.Path != t.c.src.Path {
				ss.PreviousPath = t.c.src.Path
			}
			if st.Lines != t.c.src.Lines {
				ss.PreviousLines = t.c.src.Lines
			}
			sd.Sources = append(sd.Sources, ss)
		}
		out := d.data
		if len(stamps) > 0 {
			var err error
			if out, err = tree.StampSources(d.data, stamps); err != nil {
				return nil, contracts.Errorf(contracts.CodeEvidenceUnresolved, "cannot stamp %s: %v; nothing was written", d.file, err).
					WithDetails(map[string]any{"file": d.file})
			}
		}
		sd.Changed = !bytes.Equal(out, d.data)
		if sd.Changed {
			writes, outs = append(writes, d), append(outs, out)
		}
		res.Documents = append(res.Documents, sd)
	}
	for _, d := range writes {
		if now, err := os.ReadFile(d.file); err != nil || !bytes.Equal(now, d.data) {
			return nil, contracts.Errorf(contracts.CodeFixConflict, "%s changed while stamp was planning; nothing was written, run it again", d.file).
				WithDetails(map[string]any{"file": d.file})
		}
	}
	for i, d := range writes {
		if err := atomicfile.Write(d.file, outs[i], d.mode.Perm()); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", d.file, err)
		}
	}
	return res, nil
}

// readStampDoc reads a named document and its entries; a symlink, a
// missing file or malformed sources refuse it.
func readStampDoc(file string) (*stampDoc, error) {
	fi, err := os.Lstat(file)
	switch {
	case err != nil:
		return nil, contracts.Errorf(contracts.CodeReadNotFound, "cannot stamp %s: %v", file, err).WithDetails(map[string]any{"file": file})
	case fi.Mode()&os.ModeSymlink != 0:
		return nil, contracts.Errorf(contracts.CodeReadSymlink, "cannot stamp %s: it is a symlink; name the document itself", file).WithDetails(map[string]any{"file": file})
	case !fi.Mode().IsRegular():
		return nil, contracts.Errorf(contracts.CodeReadNotRegular, "cannot stamp %s: it is not a regular file", file).WithDetails(map[string]any{"file": file})
	case fi.Size() > contracts.MaxDocumentBytes:
		return nil, contracts.Errorf(contracts.CodeReadTooLarge, "cannot stamp %s: it is over %d bytes", file, contracts.MaxDocumentBytes).WithDetails(map[string]any{"file": file})
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, err)
	}
	real := file
	if r, err := filepath.EvalSymlinks(file); err == nil {
		real = r
	}
	d := &stampDoc{file: real, data: data, mode: fi.Mode()}
	c := tree.CitingOf(filepath.Base(file), data)
	if c == nil {
		return d, nil
	}
	if len(c.Findings) > 0 {
		f := c.Findings[0]
		return nil, contracts.Errorf(contracts.CodeEvidenceUnresolved, "cannot stamp %s:%d: %s; fix the entry first, nothing was written", real, f.Line, f.Message).
			WithDetails(map[string]any{"file": real, "line": f.Line})
	}
	for _, s := range c.Sources {
		d.traces = append(d.traces, newTrace(citation{doc: real, src: s}, ""))
	}
	return d, nil
}

// stampDigest is the sha256 prefix of what t cites at the head, or why it
// cannot be stamped.
func stampDigest(t *trace, f *citedFile) (string, error) {
	switch {
	case t.status == contracts.DriftDeleted:
		return "", fmt.Errorf("the cited file was deleted; cite where the code is now")
	case t.empty:
		return "", fmt.Errorf("every cited line was removed; cite where the code is now")
	}
	if fc, bad := checkCitation(citation{src: tree.Source{EvidenceSource: contracts.EvidenceSource{Path: t.path, Lines: t.rng.String()}, Range: t.rng}}, f, "HEAD"); bad {
		return "", fmt.Errorf("%s", fc.Message)
	}
	cited, _ := evidence.Cited(f.Data, t.rng)
	return evidence.Digest(cited)[:contracts.StampDigestHex], nil
}

func unresolved(file string, t *trace, why string) error {
	return contracts.Errorf(contracts.CodeEvidenceUnresolved, "cannot stamp %s:%d (%s): %s; nothing was written", file, t.c.src.Line, citationTarget(t.c.src), why).
		WithDetails(map[string]any{"file": file, "line": t.c.src.Line})
}
