package evals

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/idprefix"
)

// A run is a directory of the state (evals/<run id>): manifest.json,
// answers/<question>.<repetition>.json (written whole, once the agent
// ended: a killed run loses only the answers in flight) beside the
// answer's redacted stdout and stderr, and grades/<question>.<rep>.json.

const (
	runsDir      = "evals"
	manifestName = "manifest.json"
	answersDir   = "answers"
	gradesDir    = "grades"
	snapshotDir  = "snapshot" // the project as the agents see it (--in snapshot)
)

// CodeEvalRunNotFound: no recorded run has that id.
const CodeEvalRunNotFound contracts.ErrorCode = "EVAL_RUN_NOT_FOUND"

func runDir(env operations.Env, id string) (string, error) {
	return env.Home.Dir(runsDir, id)
}

// resolveRun finds a run by id or unique prefix.
func resolveRun(env operations.Env, arg string) (string, error) {
	entries, err := env.Home.ReadDir(env.Home.Path(runsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	id, err := idprefix.Resolve(arg, ids, "eval run")
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", contracts.Errorf(CodeEvalRunNotFound, "no eval run %q (git context-tree eval run prints its id)", arg)
	}
	return id, nil
}

func answerKey(question string, rep int) string { return fmt.Sprintf("%s.%d", question, rep) }

// writeJSON writes a record of a run as the state's other records are
// written: replaced whole, never through a symlink (S18; the agents of a
// run work beside its records).
func writeJSON(home *state.Home, dir, name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return home.WriteFile(dir, name, append(data, '\n'))
}

// readJSON reads a record of a run, never through a symlink.
func readJSON(home *state.Home, file string, v any) error {
	data, err := home.ReadFile(file)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// loadRun reads a run's manifest, its answers (in set order, then
// repetition) and their grades.
func loadRun(env operations.Env, id string) (*contracts.EvalRun, string, error) {
	dir, err := runDir(env, id)
	if err != nil {
		return nil, "", err
	}
	var m contracts.EvalRun
	if err := readJSON(env.Home, filepath.Join(dir, manifestName), &m); err != nil {
		return nil, "", contracts.Errorf(contracts.CodeStateInvalid, "eval run %s has no readable manifest: %v", id, err)
	}
	entries, err := env.Home.ReadDir(filepath.Join(dir, answersDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		var a contracts.EvalAnswer
		if readJSON(env.Home, filepath.Join(dir, answersDir, e.Name()), &a) != nil {
			continue // torn (or a symlink): the answer is run again on resume
		}
		var g gradeRecord
		if readJSON(env.Home, filepath.Join(dir, gradesDir, e.Name()), &g) == nil {
			a.Grade, a.Reviewer = g.Grade, g.Reviewer
		}
		m.Answers = append(m.Answers, a)
	}
	slices.SortFunc(m.Answers, func(a, b contracts.EvalAnswer) int {
		if c := strings.Compare(a.Question, b.Question); c != 0 {
			return c
		}
		return a.Repetition - b.Repetition
	})
	return &m, dir, nil
}

// gradeRecord is a grade's file.
type gradeRecord struct {
	Grade    string `json:"grade"`
	Reviewer string `json:"reviewer"`
}
