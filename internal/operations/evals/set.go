// Package evals carries out the evaluation recipe (issue 31): `eval
// freeze` records a question set's digest, `eval run` runs an agent
// command on every question and records each answer, `eval grade` has a
// reviewer grade the answers blind, `eval report` computes the figures.
// The tool never calls a model itself.
package evals

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/eval"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// SetsDir is where a project keeps its question sets.
const SetsDir = "evals"

// loadedSet is a set file read and parsed.
type loadedSet struct {
	contracts.EvalSetRef
	path   string // absolute
	frozen string // absolute path of its .frozen file
	set    *eval.Set
}

// openSet finds a set by name (evals/<name>.toml in the project) or path
// and parses it.
func openSet(ctx context.Context, env operations.Env, arg string) (*loadedSet, error) {
	p, err := sources.Discover(ctx, env.Git, env.Dir)
	if err != nil {
		return nil, err
	}
	file := arg
	if !strings.HasSuffix(arg, ".toml") && !strings.ContainsRune(arg, '/') {
		file = filepath.Join(p.Root, SetsDir, arg+".toml")
	} else {
		file = env.Abs(arg)
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "no question set %s (sets are %s/<name>.toml in the project)", file, SetsDir)
	} else if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, err)
	}
	rel, err := filepath.Rel(p.Root, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = file
	}
	s, err := eval.ParseSet(filepath.ToSlash(rel), data)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(file), ".toml")
	return &loadedSet{
		EvalSetRef: contracts.EvalSetRef{Name: name, File: filepath.ToSlash(rel), Digest: s.Digest(), Questions: len(s.Question)},
		path:       file, frozen: strings.TrimSuffix(file, ".toml") + ".frozen", set: s,
	}, nil
}

// frozenRecord is a set's .frozen file.
type frozenRecord struct {
	Digest    string `json:"digest"`
	Questions int    `json:"questions"`
}

// Freeze records the set's digest beside it (evals/<name>.frozen, meant
// to be committed with it).
func Freeze(ctx context.Context, env operations.Env, arg string) (*contracts.EvalFreezeResult, error) {
	s, err := openSet(ctx, env, arg)
	if err != nil {
		return nil, err
	}
	old, _ := readFrozen(s.frozen)
	res := &contracts.EvalFreezeResult{SchemaVersion: contracts.CLIVersion, Set: s.EvalSetRef, FrozenFile: s.frozen, Changed: old == nil || old.Digest != s.Digest}
	if res.Changed {
		data, _ := json.MarshalIndent(frozenRecord{Digest: s.Digest, Questions: s.Questions}, "", "  ")
		if err := atomicfile.Write(s.frozen, append(data, '\n'), 0o644); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", s.frozen, err)
		}
	}
	return res, nil
}

func readFrozen(file string) (*frozenRecord, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var r frozenRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkFrozen refuses a set edited since it was frozen, or never frozen:
// a run must name exactly the questions it used.
func checkFrozen(s *loadedSet) error {
	r, err := readFrozen(s.frozen)
	switch {
	case err != nil:
		return contracts.Errorf(contracts.CodeEvalSetChanged, "%s is not frozen: run git context-tree eval freeze %s (and commit %s) before running it", s.File, s.Name, filepath.Base(s.frozen))
	case r.Digest != s.Digest:
		return contracts.Errorf(contracts.CodeEvalSetChanged, "%s changed since it was frozen (%s, now %s): runs would compare different questions; freeze it again for a new baseline", s.File, r.Digest, s.Digest).
			WithDetails(map[string]any{"frozen": r.Digest, "current": s.Digest})
	}
	return nil
}
